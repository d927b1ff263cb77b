/** What the blockchain:* commands share once they run (loaded by their actions, not at start-up). */
import { DataPathInUseError, DataPathLock } from '../../lock/data_path_lock.js';

/**
 * Runs `fn` holding the data path's lock: a node running on the data path refuses the command
 * (Klayr Core's "while running application"), and no node starts on it meanwhile.
 */
export const withStoppedNode = async <T>(dataPath: string, what: string, fn: () => Promise<T> | T): Promise<T> => {
  let lock: DataPathLock;
  try {
    lock = DataPathLock.acquire(dataPath);
  } catch (e) {
    if (!(e instanceof DataPathInUseError)) throw e;
    throw new Error(
      `Can't ${what} while a node runs on ${dataPath}: process ${e.holder.pid}, started ${e.holder.startedAt} (lock file ${e.lockFile}). Stop the node first.`,
    );
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
};

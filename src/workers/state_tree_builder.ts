import { StateTreeMismatchError } from '../storage/pending_tree.js';
import type { StateTreeTaskResult } from './state_tree_task.js';
import { ThreadPool } from './thread_pool.js';

/** Builds a data path's pending state tree (buildPendingStateTree), or finds none pending. */
export interface StateTreeBuilder {
  /** The root built (undefined: none was pending); rejects with StateTreeMismatchError when the state does not give its root. */
  build(dataPath: string): Promise<Buffer | undefined>;
  /** Ends the thread (after a build, or unused). */
  close(): Promise<void>;
}

/**
 * A thread of its own that builds the tree while the node goes on starting: started before the genesis
 * block is processed, it has loaded its code by the time the state is committed. Closed after one build.
 */
export const startStateTreeThread = (): StateTreeBuilder => {
  const pool = new ThreadPool<{ dataPath: string }, StateTreeTaskResult>('state_tree_task.js', 1);
  return {
    build: async (dataPath) => {
      try {
        const { root, mismatch } = await pool.run({ dataPath });
        if (mismatch !== undefined) throw new StateTreeMismatchError(mismatch);
        return root === undefined ? undefined : Buffer.from(root.buffer, root.byteOffset, root.byteLength);
      } finally {
        await pool.close();
      }
    },
    close: () => pool.close(),
  };
};

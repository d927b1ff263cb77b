// ThreadPool task: builds the pending state tree of the node's data path (buildPendingStateTree) in the
// environment this thread opens (LMDB shares it with the node's thread) and closes again.

import { closeDatabases, openDatabases } from '../storage/database.js';
import { buildPendingStateTree, StateTreeMismatchError } from '../storage/pending_tree.js';

export interface StateTreeTaskResult {
  /** The root built, or undefined when no tree was pending. */
  root?: Uint8Array;
  /** Why the tree does not give the committed root (nothing written). */
  mismatch?: string;
}

export default async ({ dataPath }: { dataPath: string }): Promise<StateTreeTaskResult> => {
  const dbs = openDatabases(dataPath);
  try {
    const root = buildPendingStateTree(dbs);
    return root === undefined ? {} : { root };
  } catch (e) {
    if (e instanceof StateTreeMismatchError) return { mismatch: e.message };
    throw e;
  } finally {
    await closeDatabases(dbs);
  }
};

import { stateSMTLeaves } from '../lib/state/keys.js';
import { buildSMT } from '../lib/tree/index.js';
import { appendTreeNodes } from './appends.js';
import { commitWrites } from './commit.js';
import type { KestrelDatabases } from './database.js';
import { readCommittedState, readPendingTree, removePendingTree } from './state_roots.js';

/** The tree built from a committed state does not give the root the state was committed under. */
export class StateTreeMismatchError extends Error {
  override readonly name = 'StateTreeMismatchError';
}

/**
 * Builds the tree of the committed state recorded as pending (a large pinned genesis block's, committed
 * before its tree: StateDB.prepareOnEmpty): every state entry read back, the tree built from scratch, its
 * root checked against the recorded one (the genesis header's stateRoot); then the nodes and the end of the
 * record are written in one transaction. Until then the record stays: a crash (kill -9) before the commit
 * leaves it for the next start, which builds the tree again. A mismatch writes nothing and throws. Returns
 * the root built, or undefined when no tree was pending.
 */
export const buildPendingStateTree = (dbs: KestrelDatabases): Buffer | undefined => {
  const pending = readPendingTree(dbs);
  if (pending === undefined) return undefined;
  const committed = readCommittedState(dbs);
  // nothing extends the state before its tree is built (StateDB refuses it)
  if (committed === undefined || committed.height !== pending.height || !committed.root.equals(pending.root))
    throw new Error(
      `The pending state tree of height ${pending.height} is not the committed state's (height ${committed?.height})`,
    );
  const entries: { key: Uint8Array; value: Uint8Array }[] = [];
  for (const { key, value } of dbs.state.getRange()) entries.push({ key, value });
  const tree = buildSMT(stateSMTLeaves(entries), pending.rootVersion);
  if (!tree.root.equals(pending.root))
    throw new StateTreeMismatchError(
      `The state committed at height ${pending.height} gives the state root ${tree.root.toString('hex')}, not ${pending.root.toString('hex')} as its block header says`,
    );
  commitWrites(dbs, (d) => {
    appendTreeNodes(d, tree.nodes);
    removePendingTree(d);
  });
  return tree.root;
};

import type { GetOptions } from 'lmdb';
import type { Schema } from '../lib/codec/index.js';
import { compile } from '../lib/codec/index.js';
import { nodeRef, refHash } from '../lib/tree/index.js';
import type { KestrelDatabases } from './database.js';
import { TABLES, tableHeightKey, tableKey } from './tables.js';

/** The last committed state: its height, root, and the version its root node is stored under (its reference's). */
export interface CommittedState {
  height: number;
  root: Buffer;
  rootVersion: number;
}

const currentSchema = {
  $id: '/kestrel/state/current',
  type: 'object',
  required: ['height', 'root', 'rootVersion'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    root: { dataType: 'bytes', fieldNumber: 2 },
    rootVersion: { dataType: 'uint32', fieldNumber: 3 },
  },
} as const satisfies Schema;
const currentCodec = compile<CommittedState>(currentSchema);

const CURRENT_KEY = tableKey(TABLES.stateCurrent);

/** The last committed height and root, undefined before the first commit (as `options.transaction` sees it, when given). */
export const readCommittedState = (
  dbs: Pick<KestrelDatabases, 'meta'>,
  options?: GetOptions,
): CommittedState | undefined => {
  const raw = dbs.meta.get(CURRENT_KEY, options);
  return raw === undefined ? undefined : currentCodec.decode(raw);
};

/** The reference (`version || hash`) of the state root committed at `height`, if it is still known. */
export const readRootRefAt = (dbs: Pick<KestrelDatabases, 'meta'>, height: number): Buffer | undefined =>
  dbs.meta.get(tableHeightKey(TABLES.stateRoots, height));

/** The state root committed at `height`, if it is still known. */
export const readRootAt = (dbs: Pick<KestrelDatabases, 'meta'>, height: number): Buffer | undefined => {
  const ref = readRootRefAt(dbs, height);
  return ref === undefined ? undefined : refHash(ref);
};

/** The reference of a committed state's root node. */
export const rootRefOf = (state: CommittedState): Buffer => nodeRef(state.rootVersion, state.root);

/** The reference of the last committed state's root, undefined before the first commit. */
export const readLatestRootRef = (dbs: Pick<KestrelDatabases, 'meta'>): Buffer | undefined => {
  const state = readCommittedState(dbs);
  return state === undefined ? undefined : rootRefOf(state);
};

/** The committed state whose root has the reference `ref`. */
export const committedStateOf = (height: number, ref: Buffer): CommittedState => ({
  height,
  root: refHash(ref),
  rootVersion: ref.readUInt32BE(0),
});

/** Records `state` as the last committed one, with its root's reference by height; inside the commit's transaction. */
export const writeCommittedState = (dbs: Pick<KestrelDatabases, 'meta'>, state: CommittedState): void => {
  dbs.meta.putSync(tableHeightKey(TABLES.stateRoots, state.height), rootRefOf(state));
  dbs.meta.putSync(CURRENT_KEY, currentCodec.encode(state));
};

/** Undoes writeCommittedState for `height`: `previous` becomes the last committed state (none: nothing committed). */
export const removeCommittedState = (
  dbs: Pick<KestrelDatabases, 'meta'>,
  height: number,
  previous: CommittedState | undefined,
): void => {
  dbs.meta.removeSync(tableHeightKey(TABLES.stateRoots, height));
  if (previous === undefined) dbs.meta.removeSync(CURRENT_KEY);
  else dbs.meta.putSync(CURRENT_KEY, currentCodec.encode(previous));
};

const PENDING_TREE_KEY = tableKey(TABLES.pendingStateTree);

/**
 * The committed state whose tree nodes are not stored yet, if any: its height and the root its tree must
 * have (a large pinned genesis block's state is committed first and its tree built afterwards).
 */
export const readPendingTree = (dbs: Pick<KestrelDatabases, 'meta'>): CommittedState | undefined => {
  const raw = dbs.meta.get(PENDING_TREE_KEY);
  return raw === undefined ? undefined : currentCodec.decode(raw);
};

/** Records that `state`'s tree is still to be built; inside the transaction that commits the state. */
export const writePendingTree = (dbs: Pick<KestrelDatabases, 'meta'>, state: CommittedState): void => {
  dbs.meta.putSync(PENDING_TREE_KEY, currentCodec.encode(state));
};

/** Clears the record; inside the transaction that stores the tree's nodes. */
export const removePendingTree = (dbs: Pick<KestrelDatabases, 'meta'>): void => {
  dbs.meta.removeSync(PENDING_TREE_KEY);
};

import type { GetOptions } from 'lmdb';
import type { Schema } from '../lib/codec/index.js';
import { compile } from '../lib/codec/index.js';
import type { KestrelDatabases } from './database.js';
import { TABLES, tableHeightKey, tableKey } from './tables.js';

/** The last committed state: its height and root. */
export interface CommittedState {
  height: number;
  root: Buffer;
}

const currentSchema = {
  $id: '/kestrel/state/current',
  type: 'object',
  required: ['height', 'root'],
  properties: { height: { dataType: 'uint32', fieldNumber: 1 }, root: { dataType: 'bytes', fieldNumber: 2 } },
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

/** The state root committed at `height`, if it is still known. */
export const readRootAt = (dbs: Pick<KestrelDatabases, 'meta'>, height: number): Buffer | undefined =>
  dbs.meta.get(tableHeightKey(TABLES.stateRoots, height));

/** Records `state` as the last committed one, with its root by height; inside the commit's transaction. */
export const writeCommittedState = (dbs: Pick<KestrelDatabases, 'meta'>, state: CommittedState): void => {
  dbs.meta.putSync(tableHeightKey(TABLES.stateRoots, state.height), state.root);
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

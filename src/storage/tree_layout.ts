import { NODE_REF_BYTES } from '../lib/tree/index.js';
import type { KestrelDatabases } from './database.js';
import { readCommittedState } from './state_roots.js';

const EARLIER_LAYOUT =
  'This data path was written by an earlier Kestrel, which stored state tree nodes by hash alone: remove its data directory (or use another --data-path) and let the node sync again';

/**
 * Refuses a data path written before state tree nodes were stored under `version || hash`: its nodes are keyed by
 * their hash alone and its branches name their children by hash, which this layout cannot read; its committed-state
 * record has no root version (a pending genesis tree leaves no node to tell by).
 */
export const assertVersionedTree = (dbs: Pick<KestrelDatabases, 'smt' | 'meta'>): void => {
  for (const key of dbs.smt.getKeys({ limit: 1 })) if (key.length !== NODE_REF_BYTES) throw new Error(EARLIER_LAYOUT);
  try {
    readCommittedState(dbs);
  } catch (error) {
    throw new Error(`${EARLIER_LAYOUT} (its committed state record does not decode: ${(error as Error).message})`);
  }
};

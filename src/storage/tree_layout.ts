import { NODE_REF_BYTES } from '../lib/tree/index.js';
import type { KestrelDatabases } from './database.js';

/**
 * Refuses a data path whose state tree nodes are keyed by their hash alone (Kestrel before the nodes were
 * stored under `version || hash`): its branches name their children by hash, which this layout cannot read.
 */
export const assertVersionedTree = (dbs: Pick<KestrelDatabases, 'smt'>): void => {
  for (const key of dbs.smt.getKeys({ limit: 1 }))
    if (key.length !== NODE_REF_BYTES)
      throw new Error(
        'This data path was written by an earlier Kestrel, which stored state tree nodes by hash alone: remove its data directory (or use another --data-path) and let the node sync again',
      );
};

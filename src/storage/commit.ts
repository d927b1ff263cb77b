import { releaseCommittedReads } from './committed_reads.js';
import type { KestrelDatabases } from './database.js';

/** Writes to any of the environment's databases, run inside one write transaction. */
export type Writes = (dbs: KestrelDatabases) => void;

/**
 * The node's only way to write committed data: every write of `writes` lands in one LMDB write
 * transaction, on disk (synced) before this returns, or none of them does (an exception aborts it).
 */
export const commitWrites = (dbs: KestrelDatabases, ...writes: readonly (Writes | undefined)[]): void => {
  try {
    dbs.root.transactionSync(() => {
      for (const write of writes) write?.(dbs);
    });
  } finally {
    // committed reads held since before this commit would not see it
    releaseCommittedReads(dbs);
  }
};

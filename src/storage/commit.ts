import { getOrCreate } from '../lib/collections.js';
import { releaseCommittedReads } from './committed_reads.js';
import type { KestrelDatabases } from './database.js';
import { forgetPrunedHeights } from './prune.js';
import { writeBehindOf } from './write_behind.js';

const directCommitListeners = new WeakMap<object, Set<() => void>>();

/**
 * Calls `listener` after each commit of the environment that went to LMDB in a transaction of its
 * own (not recorded by write-behind, whose flushes have listeners of their own). Returns its removal.
 */
export const onDirectCommit = (dbs: Pick<KestrelDatabases, 'root'>, listener: () => void): (() => void) => {
  const listeners = getOrCreate(directCommitListeners, dbs.root, () => new Set<() => void>());
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Writes to any of the environment's databases, run inside one write transaction. */
export type Writes = (dbs: KestrelDatabases) => void;

/**
 * The node's only way to write committed data: every write of `writes` lands in one LMDB write
 * transaction, on disk (synced) before this returns, or none of them does (an exception aborts it).
 * In write-behind mode (block synchronization, write_behind.ts) the writes are recorded as one
 * set instead, seen by every read at once and written to LMDB, whole, in a later flush.
 */
export const commitWrites = (dbs: KestrelDatabases, ...writes: readonly (Writes | undefined)[]): void => {
  const behind = writeBehindOf(dbs.root);
  if (behind?.recordsCommits === true) {
    try {
      behind.record(() => {
        for (const write of writes) write?.(dbs);
      });
    } catch (error) {
      forgetPrunedHeights(dbs);
      throw error;
    }
    return;
  }
  try {
    dbs.root.transactionSync(() => {
      for (const write of writes) write?.(dbs);
    });
  } catch (error) {
    forgetPrunedHeights(dbs);
    throw error;
  } finally {
    // committed reads held since before this commit would not see it
    releaseCommittedReads(dbs);
  }
  const listeners = directCommitListeners.get(dbs.root);
  if (listeners !== undefined) for (const listener of listeners) listener();
};

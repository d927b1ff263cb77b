import type { Transaction } from 'lmdb';
import type { BinaryDB, KestrelDatabases } from './database.js';
import { pendingReadsOf } from './pending_reads.js';

/**
 * One LMDB read transaction per environment for point reads of committed data, kept until the next
 * commit (commitWrites releases it). lmdb-js otherwise renews a read transaction in every event-loop
 * turn that reads and arms a timer to reset it after the turn: on the RPC front every request is a
 * turn of its own, and that renew-and-reset cost about as much as the read itself.
 */
const held = new WeakMap<KestrelDatabases['root'], { transaction: Transaction }>();

const readOptions = (root: KestrelDatabases['root']): { transaction: Transaction } => {
  let options = held.get(root);
  if (options === undefined) {
    options = { transaction: root.useReadTransaction() };
    held.set(root, options);
  }
  return options;
};

/**
 * The committed value of `key` in `db` (one of `dbs`' databases); inside a write transaction, what
 * it has written so far; a pending write first (write-behind mode, or a mirror of another thread's: the held
 * transaction is LMDB's).
 */
export const getCommitted = (dbs: Pick<KestrelDatabases, 'root'>, db: BinaryDB, key: Buffer): Buffer | undefined => {
  const pending = pendingReadsOf(dbs.root)?.lookupIn(db, key);
  return pending === undefined ? db.get(key, readOptions(dbs.root)) : pending.value;
};

/** Ends the held read transaction (after a commit, so that the next read sees it). */
export const releaseCommittedReads = (dbs: Pick<KestrelDatabases, 'root'>): void => {
  const options = held.get(dbs.root);
  if (options === undefined) return;
  held.delete(dbs.root);
  options.transaction.done();
};

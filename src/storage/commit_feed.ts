import { onDirectCommit } from './commit.js';
import { releaseCommittedReads } from './committed_reads.js';
import type { KestrelDatabases } from './database.js';
import { packWrites, unpackWrites } from './packed_writes.js';
import type { PendingMirror } from './pending_mirror.js';
import type { DatabaseName } from './tables.js';
import type { RecordedWrites } from './write_behind.js';
import { writeBehindOf } from './write_behind.js';

/** What the writer of an environment tells a thread that reads it, in order (see PendingMirror). */
export type CommitNews =
  /** A recorded set's writes of one database (packWrites). */
  | { kind: 'set'; set: number; name: DatabaseName; packed: Buffer }
  /** A flush wrote every set up to `lastSet`. */
  | { kind: 'flushed'; lastSet: number }
  /** A commit went to LMDB in a transaction of its own. */
  | { kind: 'committed' };

/**
 * Tells `send` every commit of the writer `dbs` that touches `names`, from now on, after the sets
 * pending now. Returns the end of it.
 */
export const feedCommits = (
  dbs: KestrelDatabases,
  names: readonly DatabaseName[],
  send: (news: CommitNews) => void,
): (() => void) => {
  const behind = writeBehindOf(dbs.root);
  const sendSet = (set: number, writes: RecordedWrites): void => {
    for (const name of names) {
      const entries = writes.get(name);
      if (entries !== undefined && entries.size > 0)
        send({ kind: 'set', set, name, packed: packWrites(entries.values()) });
    }
  };
  const stops = [onDirectCommit(dbs, () => send({ kind: 'committed' }))];
  if (behind !== undefined) {
    stops.push(behind.onRecord(sendSet));
    stops.push(behind.onFlush((lastSet) => send({ kind: 'flushed', lastSet })));
    for (const { set, writes } of behind.recordedSets()) sendSet(set, writes);
  }
  return () => {
    for (const stop of stops) stop();
  };
};

/** Applies the writer's news to this thread's handles `dbs` and their mirror. */
export const applyCommitNews = (dbs: KestrelDatabases, mirror: PendingMirror, news: CommitNews): void => {
  switch (news.kind) {
    case 'set':
      // a Buffer posted to a thread arrives as a Uint8Array
      mirror.apply(
        news.set,
        news.name,
        unpackWrites(Buffer.from(news.packed.buffer, news.packed.byteOffset, news.packed.length)),
      );
      return;
    case 'flushed':
      renewReads(dbs);
      mirror.flushed(news.lastSet);
      return;
    case 'committed':
      renewReads(dbs);
      return;
  }
};

/**
 * Read transactions opened before another thread's commit would not see it: the one held for
 * committed reads ends, and lmdb-js's own (renewed lazily, reset only after the event-loop turn
 * or by a write through these handles, which a reader never makes) is reset.
 */
const renewReads = (dbs: KestrelDatabases): void => {
  releaseCommittedReads(dbs);
  dbs.root.resetReadTxn();
};

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commitWrites } from '../../src/storage/commit.js';
import type { CommitNews } from '../../src/storage/commit_feed.js';
import { applyCommitNews, feedCommits } from '../../src/storage/commit_feed.js';
import { getCommitted } from '../../src/storage/committed_reads.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { packWrites, unpackWrites } from '../../src/storage/packed_writes.js';
import { PendingMirror } from '../../src/storage/pending_mirror.js';
import { writeBehindOf } from '../../src/storage/write_behind.js';
import { tempDataPath } from '../helpers/state.js';

const b = (s: string): Buffer => Buffer.from(s);
const text = (v: Uint8Array | undefined): string | undefined =>
  v === undefined ? undefined : Buffer.from(v).toString();
const range = (dbs: KestrelDatabases, options: { start?: Buffer; end?: Buffer; reverse?: boolean; limit?: number }) =>
  [...dbs.state.getRange(options)].map(({ key, value }) => `${text(key)}=${text(value)}`);

/** A writer's environment and a second set of handles (another thread's, here the same one) with its mirror fed in order. */
const setup = () => {
  const dataPath = tempDataPath();
  const writer = openDatabases(dataPath);
  const reader = openDatabases(dataPath, { writer: false });
  const mirror = new PendingMirror(reader, ['state']);
  const news: CommitNews[] = [];
  // what crosses to a thread is a structured clone (a Buffer arrives as a Uint8Array)
  const stop = feedCommits(writer, ['state'], (n) => news.push(structuredClone(n)));
  const deliver = (): void => {
    for (const n of news.splice(0)) applyCommitNews(reader, mirror, n);
  };
  const behind = writeBehindOf(writer.root);
  assert.ok(behind !== undefined);
  return { writer, reader, mirror, behind, deliver, stop };
};

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Every point and range read of the reader equals the writer's. */
const assertSameReads = (writer: KestrelDatabases, reader: KestrelDatabases, when: string): void => {
  for (const key of KEYS)
    assert.equal(
      text(getCommitted(reader, reader.state, b(key))),
      text(getCommitted(writer, writer.state, b(key))),
      `${when}: ${key}`,
    );
  for (const options of [
    {},
    { start: b('b'), end: b('e') },
    { reverse: true, limit: 3 },
    { start: b('e'), reverse: true },
  ])
    assert.deepEqual(range(reader, options), range(writer, options), `${when}: range ${JSON.stringify(options)}`);
};

describe('pending mirror (storage/pending_mirror.ts, commit_feed.ts)', () => {
  it('packs and unpacks writes and removals; refuses a truncated buffer', () => {
    const entries = [
      { key: b('k1'), value: b('value') },
      { key: b('k2'), value: undefined },
      { key: b(''), value: Buffer.alloc(0) },
    ];
    const packed = packWrites(entries);
    assert.deepEqual(unpackWrites(packed), entries);
    assert.throws(() => unpackWrites(packed.subarray(0, packed.length - 1)), /truncated/);
    assert.throws(() => unpackWrites(packed.subarray(0, 6)), /truncated/);
  });

  it("reads through the mirror equal the writer's through direct commits, recorded sets and flushes", async () => {
    const { writer, reader, mirror, behind, deliver, stop } = setup();
    commitWrites(writer, (d) => {
      d.state.putSync(b('a'), b('1'));
      d.state.putSync(b('c'), b('1'));
    });
    deliver();
    assertSameReads(writer, reader, 'after a direct commit');
    behind.begin({ flushWith: 'transaction', flushEvery: 3 });
    let n = 0;
    for (const [put, remove] of [
      ['b', 'a'],
      ['d', 'c'],
      ['a', 'b'],
      ['e', 'x'],
      ['c', 'd'],
      ['f', 'e'],
      ['b', 'f'],
    ] as const) {
      n++;
      commitWrites(writer, (d) => {
        d.state.putSync(b(put), b(String(n)));
        d.state.removeSync(b(remove));
      });
      deliver();
      assertSameReads(writer, reader, `after set ${n}`);
    }
    assert.ok(mirror.pendingSets > 0, 'sets wait for a flush');
    await behind.end();
    deliver();
    assert.equal(mirror.pendingSets, 0, 'every flushed set is forgotten');
    assertSameReads(writer, reader, 'after the last flush');
    stop();
    await closeDatabases(reader);
    await closeDatabases(writer);
  });

  it('a reader that starts while sets are pending is given them first', async () => {
    const dataPath = tempDataPath();
    const writer = openDatabases(dataPath);
    const behind = writeBehindOf(writer.root);
    assert.ok(behind !== undefined);
    behind.begin({ flushWith: 'transaction', flushEvery: 100 });
    commitWrites(writer, (d) => d.state.putSync(b('a'), b('pending')));
    const reader = openDatabases(dataPath, { writer: false });
    const mirror = new PendingMirror(reader, ['state']);
    const stop = feedCommits(writer, ['state'], (n) => applyCommitNews(reader, mirror, structuredClone(n)));
    assert.equal(text(getCommitted(reader, reader.state, b('a'))), 'pending');
    await behind.end();
    assert.equal(text(getCommitted(reader, reader.state, b('a'))), 'pending');
    stop();
    await closeDatabases(reader);
    await closeDatabases(writer);
  });

  it('refuses a set out of order and a database it does not mirror', async () => {
    const dataPath = tempDataPath();
    const reader = openDatabases(dataPath, { writer: false });
    const mirror = new PendingMirror(reader, ['state']);
    mirror.apply(2, 'state', [{ key: b('a'), value: b('1') }]);
    assert.throws(() => mirror.apply(1, 'state', []), /set 1 after set 2/);
    assert.throws(() => mirror.apply(3, 'blocks', []), /not mirrored/);
    await closeDatabases(reader);
  });
});

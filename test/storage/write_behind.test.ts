import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commitWrites } from '../../src/storage/commit.js';
import { getCommitted } from '../../src/storage/committed_reads.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { putOwnedSync, writeBehindOf } from '../../src/storage/write_behind.js';
import { tempDataPath } from '../helpers/state.js';

const k = (s: string): Buffer => Buffer.from(s);
const v = (s: string): Buffer => Buffer.from(s);
const text = (b: Uint8Array | undefined): string | undefined =>
  b === undefined ? undefined : Buffer.from(b).toString();
const entries = (iterable: Iterable<{ key: Uint8Array; value: Uint8Array }>): string[] =>
  [...iterable].map(({ key, value }) => `${text(key)}=${text(value)}`);
const keys = (iterable: Iterable<Uint8Array>): string[] => [...iterable].map((key) => text(key) ?? '');

const open = (): { dataPath: string; dbs: KestrelDatabases } => {
  const dataPath = tempDataPath();
  return { dataPath, dbs: openDatabases(dataPath) };
};

const behindOf = (dbs: KestrelDatabases) => {
  const behind = writeBehindOf(dbs.root);
  assert.ok(behind !== undefined, 'a writable environment has a write-behind layer');
  return behind;
};

describe('write-behind (storage/write_behind.ts)', () => {
  it('off: a commit is one synchronous LMDB transaction, nothing pending', async () => {
    const { dbs } = open();
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('1')));
    assert.equal(behindOf(dbs).pendingSets, 0);
    assert.equal(text(dbs.state.get(k('a'))), '1');
    await closeDatabases(dbs);
  });

  it('on: commits are recorded, every point read sees them at once, LMDB only after the flush', async () => {
    const { dbs } = open();
    commitWrites(dbs, (d) => d.state.putSync(k('gone'), v('x')));
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => {
      d.state.putSync(k('a'), v('1'));
      // inside the commit, what it wrote so far is read back
      assert.equal(text(d.state.get(k('a'))), '1');
      d.state.removeSync(k('gone'));
    });
    assert.equal(behind.pendingSets, 1);
    assert.equal(text(dbs.state.get(k('a'))), '1');
    assert.equal(text(getCommitted(dbs, dbs.state, k('a'))), '1');
    assert.equal(dbs.state.get(k('gone')), undefined, 'a pending removal hides the stored value');
    assert.equal(getCommitted(dbs, dbs.state, k('gone')), undefined);
    // an explicit read transaction is LMDB's snapshot: without what is pending
    const transaction = dbs.root.useReadTransaction();
    assert.equal(dbs.state.get(k('a'), { transaction }), undefined);
    assert.equal(text(dbs.state.get(k('gone'), { transaction })), 'x');
    transaction.done();
    await behind.end();
    assert.equal(behind.pendingSets, 0);
    assert.equal(behind.stats().flushes, 1);
    const after = dbs.root.useReadTransaction();
    assert.equal(text(dbs.state.get(k('a'), { transaction: after })), '1');
    assert.equal(dbs.state.get(k('gone'), { transaction: after }), undefined);
    after.done();
    await closeDatabases(dbs);
  });

  it('an owned put is recorded as it is inside a recorded commit (no copy), and is a plain put outside', async () => {
    const { dbs } = open();
    putOwnedSync(dbs, dbs.state, k('direct'), v('0'));
    assert.equal(text(dbs.state.get(k('direct'))), '0');
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    const key = k('a');
    const value = v('1');
    const copied = v('2');
    commitWrites(dbs, (d) => {
      putOwnedSync(d, d.state, key, value);
      d.state.putSync(k('b'), copied);
    });
    // the recorded entry is the caller's buffer itself; a plain put's is a copy
    assert.equal(dbs.state.get(k('a')), value);
    assert.notEqual(dbs.state.get(k('b')), copied);
    await behind.end();
    assert.equal(text(dbs.state.get(k('a'))), '1');
    assert.equal(text(dbs.state.get(k('b'))), '2');
    await closeDatabases(dbs);
  });

  it('range reads merge pending puts and removes with stored entries: forward, reverse, limit, bounds', async () => {
    const { dbs } = open();
    commitWrites(dbs, (d) => {
      for (const key of ['b', 'd', 'f', 'h']) d.meta.putSync(k(key), v(`old-${key}`));
    });
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => {
      d.meta.putSync(k('a'), v('new-a'));
      d.meta.putSync(k('d'), v('new-d'));
      d.meta.removeSync(k('f'));
      d.meta.putSync(k('g'), v('new-g'));
    });
    commitWrites(dbs, (d) => {
      d.meta.putSync(k('i'), v('new-i'));
      d.meta.removeSync(k('a'));
    });
    assert.deepEqual(entries(dbs.meta.getRange({})), ['b=old-b', 'd=new-d', 'g=new-g', 'h=old-h', 'i=new-i']);
    assert.deepEqual(entries(dbs.meta.getRange({ start: k('c'), end: k('h') })), ['d=new-d', 'g=new-g']);
    assert.deepEqual(
      entries(dbs.meta.getRange({ start: k('d'), end: k('h'), inclusiveEnd: true, exclusiveStart: true })),
      ['g=new-g', 'h=old-h'],
    );
    assert.deepEqual(entries(dbs.meta.getRange({ reverse: true })), [
      'i=new-i',
      'h=old-h',
      'g=new-g',
      'd=new-d',
      'b=old-b',
    ]);
    assert.deepEqual(entries(dbs.meta.getRange({ start: k('h'), end: k('b'), reverse: true })), [
      'h=old-h',
      'g=new-g',
      'd=new-d',
    ]);
    assert.deepEqual(entries(dbs.meta.getRange({ start: k('h'), end: k('b'), reverse: true, inclusiveEnd: true })), [
      'h=old-h',
      'g=new-g',
      'd=new-d',
      'b=old-b',
    ]);
    assert.deepEqual(entries(dbs.meta.getRange({ limit: 2 })), ['b=old-b', 'd=new-d']);
    assert.deepEqual(entries(dbs.meta.getRange({ reverse: true, limit: 1 })), ['i=new-i']);
    assert.deepEqual(keys(dbs.meta.getKeys({ start: k('a'), end: k('z') })), ['b', 'd', 'g', 'h', 'i']);
    // what the flush leaves in LMDB is what the reads showed
    await behind.end();
    assert.deepEqual(entries(dbs.meta.getRange({})), ['b=old-b', 'd=new-d', 'g=new-g', 'h=old-h', 'i=new-i']);
    await closeDatabases(dbs);
  });

  it('a removal by range (pruning) inside a recorded commit removes pending and stored keys alike', async () => {
    const { dbs } = open();
    commitWrites(dbs, (d) => d.events.putSync(k('1'), v('x')));
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => d.events.putSync(k('2'), v('y')));
    commitWrites(dbs, (d) => {
      d.events.putSync(k('4'), v('z'));
      for (const key of d.events.getKeys({ start: k('0'), end: k('3') })) d.events.removeSync(key);
    });
    assert.deepEqual(keys(dbs.events.getKeys({})), ['4']);
    await behind.end();
    assert.deepEqual(keys(dbs.events.getKeys({})), ['4']);
    await closeDatabases(dbs);
  });

  it('a commit that throws records nothing, as an aborted transaction', async () => {
    const { dbs } = open();
    const behind = behindOf(dbs);
    behind.begin();
    assert.throws(
      () =>
        commitWrites(dbs, (d) => {
          d.state.putSync(k('a'), v('1'));
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(dbs.state.get(k('a')), undefined);
    assert.equal(behind.pendingSets, 0);
    await behind.end();
    await closeDatabases(dbs);
  });

  it("batch flushes (lmdb-js's write thread): a key rewritten by a later set keeps the later value", async () => {
    const { dbs } = open();
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'batch', flushEvery: 1 });
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('1')));
    // the first flush is in flight now; the second set rewrites the key before it commits
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('2')));
    commitWrites(dbs, (d) => d.state.putSync(k('b'), v('3')));
    assert.equal(text(dbs.state.get(k('a'))), '2');
    const deadline = Date.now() + 10_000;
    while (behind.stats().flushes < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
    assert.ok(behind.stats().flushes >= 1, 'the first flush committed');
    assert.equal(text(dbs.state.get(k('a'))), '2', 'after the first flush, the second set still wins');
    assert.equal(text(getCommitted(dbs, dbs.state, k('a'))), '2');
    await behind.end();
    assert.equal(behind.pendingSets, 0);
    assert.ok(behind.stats().flushes <= 3);
    assert.equal(text(dbs.state.get(k('a'))), '2');
    assert.equal(text(getCommitted(dbs, dbs.state, k('b'))), '3');
    await closeDatabases(dbs);
  });

  it('sets still pending after the mode ends are recorded to, so no direct transaction overtakes them', async () => {
    const { dbs } = open();
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('1')));
    const ended = behind.end();
    assert.equal(behind.active, false);
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('2')));
    await ended;
    await behind.drain();
    assert.equal(text(dbs.state.get(k('a'))), '2');
    assert.equal(behind.pendingSets, 0);
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('3')));
    assert.equal(behind.pendingSets, 0, 'with nothing pending and the mode off, commits are direct again');
    await closeDatabases(dbs);
  });

  it('room() waits for flushes while more sets are pending than allowed', async () => {
    const { dbs } = open();
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'batch', flushEvery: 10, maxSets: 2 });
    for (let i = 0; i < 10; i++) {
      commitWrites(dbs, (d) => d.smt.putSync(k(`n${i}`), v(String(i))));
      await behind.room();
      assert.ok(behind.pendingSets <= 2, `at most 2 sets pending after room(), ${behind.pendingSets}`);
    }
    await behind.end();
    assert.equal(behind.stats().sets, 10);
    await closeDatabases(dbs);
  });

  it('a read-only environment on the same path sees LMDB only: what a crash would leave', async () => {
    const { dataPath, dbs } = open();
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('1')));
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('2')));
    const reader = openDatabases(dataPath, { readOnly: true });
    assert.equal(text(reader.state.get(k('a'))), '1');
    assert.equal(writeBehindOf(reader.root) === behind, false);
    await behind.end();
    await closeDatabases(dbs);
  });

  it('whenStored runs its callback when LMDB holds exactly the sets recorded before it, before any later one', async () => {
    const { dbs } = open();
    const behind = behindOf(dbs);
    let immediate = false;
    behind.whenStored(() => {
      immediate = true;
    });
    assert.ok(immediate, 'nothing pending: at once');
    behind.begin({ flushWith: 'batch', flushEvery: 10 });
    const seen: (string | undefined)[] = [];
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('1')));
    commitWrites(dbs, (d) => d.state.putSync(k('a'), v('2')));
    behind.whenStored(() => {
      const transaction = dbs.root.useReadTransaction();
      seen.push(text(dbs.state.get(k('a'), { transaction })), text(dbs.state.get(k('b'), { transaction })));
      transaction.done();
    });
    commitWrites(dbs, (d) => {
      d.state.putSync(k('a'), v('3'));
      d.state.putSync(k('b'), v('4'));
    });
    await behind.end();
    assert.deepEqual(seen, ['2', undefined], "LMDB held the second set's state, not the third's");
    assert.equal(text(dbs.state.get(k('a'))), '3');
    await closeDatabases(dbs);
  });

  it('refuses what it cannot record or merge, with a clear error, and changes nothing', async () => {
    const { dbs } = open();
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    assert.throws(
      () => commitWrites(dbs, (d) => d.state.putSync(k('a'), v('1'), 7)),
      /Write-behind records plain puts only/,
    );
    assert.equal(behind.pendingSets, 0);
    assert.equal(dbs.state.get(k('a')), undefined);
    commitWrites(dbs, (d) => d.state.putSync(k('b'), v('2')));
    assert.throws(() => [...dbs.state.getRange({ offset: 1 })], /offset, versions or counts are not supported/);
    assert.throws(() => dbs.state.getCount({}), /offset, versions or counts are not supported/);
    assert.equal(text(dbs.state.get(k('b'))), '2');
    await behind.end();
    assert.equal(dbs.state.getCount({}), 1, 'with nothing pending, LMDB answers as before');
    await closeDatabases(dbs);
  });

  it('closing the environment writes what is pending first', async () => {
    const { dataPath, dbs } = open();
    const behind = behindOf(dbs);
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => d.blocks.putSync(k('last'), v('7')));
    await closeDatabases(dbs);
    const reopened = openDatabases(dataPath);
    assert.equal(text(reopened.blocks.get(k('last'))), '7');
    await closeDatabases(reopened);
  });
});

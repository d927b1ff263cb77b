import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UndoEntry } from '../../src/engine/state/state_db.js';
import { BlockState, inIterationOrder, PlainStateDB } from '../../src/engine/state/state_db.js';
import type { Entry, IterateOptions } from '../../src/engine/state/types.js';
import { commitWrites } from '../../src/storage/commit.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { writeBehindOf } from '../../src/storage/write_behind.js';
import { tempDataPath } from '../helpers/state.js';

const b = (s: string): Buffer => Buffer.from(s);
const shown = (entries: readonly Entry[]): string[] => entries.map((e) => `${e.key}=${e.value}`);

/** Every (reverse, limit) over a few ranges: the read equals the whole range, ascending, reordered and cut. */
const everyRead = (): IterateOptions[] => {
  const out: IterateOptions[] = [];
  for (const [gte, lte] of [
    ['a', 'z'],
    ['b', 'd'],
    ['c', 'c'],
    ['x', 'y'],
    ['d', 'a'],
  ] as const)
    for (const reverse of [undefined, false, true])
      for (const limit of [undefined, 0, 1, 2, 3, 10])
        out.push({
          gte: b(gte),
          lte: b(lte),
          ...(reverse === undefined ? {} : { reverse }),
          ...(limit === undefined ? {} : { limit }),
        });
  return out;
};

const label = (o: IterateOptions): string => `[${o.gte}, ${o.lte}] reverse=${o.reverse} limit=${o.limit}`;

describe('state range reads: reverse and limit as LMDB, the block overlay and pending writes give them', () => {
  it('committed entries (PlainStateDB over LMDB): every order and limit equals the whole range cut, keys longer than lte left out', async () => {
    const dbs = openDatabases(tempDataPath());
    commitWrites(dbs, (d) => {
      for (const key of ['a', 'b', 'bb', 'c', 'c\0', 'ca', 'd', 'e']) d.engine.putSync(b(key), b(`v-${key}`));
    });
    const state = new PlainStateDB(dbs.engine);
    const all = state.iterate({ gte: b(''), lte: b('zz') });
    assert.deepEqual(
      all.map((e) => e.key.toString()),
      ['a', 'b', 'bb', 'c', 'c\0', 'ca', 'd', 'e'],
    );
    for (const o of everyRead()) {
      const ascending = all.filter((e) => e.key.compare(o.gte) >= 0 && e.key.compare(o.lte) <= 0);
      assert.deepEqual(shown(state.iterate(o)), shown(inIterationOrder([...ascending], o)), label(o));
    }
    await closeDatabases(dbs);
  });

  it('with writes pending (write-behind) and with the block overlay changing keys inside and outside the range', async () => {
    const dbs = openDatabases(tempDataPath());
    commitWrites(dbs, (d) => {
      for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) d.engine.putSync(b(key), b(`v-${key}`));
    });
    const behind = writeBehindOf(dbs.root)!;
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    commitWrites(dbs, (d) => {
      d.engine.removeSync(b('c'));
      d.engine.putSync(b('cc'), b('pending-cc'));
      d.engine.putSync(b('e'), b('pending-e'));
    });
    const committed = new PlainStateDB(dbs.engine);
    const reference = new Map<string, string>([
      ['a', 'v-a'],
      ['b', 'v-b'],
      ['cc', 'pending-cc'],
      ['d', 'v-d'],
      ['e', 'pending-e'],
      ['f', 'v-f'],
    ]);
    const check = (state: { iterate(o: IterateOptions): Entry[] }, expected: Map<string, string>, what: string) => {
      const sorted = [...expected].sort(([x], [y]) => Buffer.compare(b(x), b(y)));
      for (const o of everyRead()) {
        const ascending = sorted
          .filter(([key]) => b(key).compare(o.gte) >= 0 && b(key).compare(o.lte) <= 0)
          .map(([key, value]) => ({ key: b(key), value: b(value) }));
        assert.deepEqual(shown(state.iterate(o)), shown(inIterationOrder(ascending, o)), `${what}: ${label(o)}`);
      }
    };
    check(committed, reference, 'pending writes');
    const block = new BlockState(committed);
    block.set(b('zz'), b('block-zz')); // outside every range but the widest
    check(block, new Map([...reference, ['zz', 'block-zz']]), 'overlay outside');
    block.del(b('b'));
    block.set(b('bc'), b('block-bc'));
    block.set(b('d'), b('block-d'));
    const changed = new Map([...reference, ['zz', 'block-zz'], ['bc', 'block-bc'], ['d', 'block-d']]);
    changed.delete('b');
    check(block, changed, 'overlay inside');
    await behind.end();
    check(committed, reference, 'flushed');
    await closeDatabases(dbs);
  });

  it('PlainStateDB holds its records in memory: committed writes and reverts reach its reads, an aborted transaction nothing', async () => {
    const dbs = openDatabases(tempDataPath());
    const state = new PlainStateDB(dbs.engine);
    const all = { gte: b(''), lte: b('zz') };
    assert.deepEqual(state.iterate(all), []);
    const first = new BlockState(state);
    first.set(b('a'), b('1'));
    first.set(b('b'), b('2'));
    let undo: UndoEntry[] = [];
    state.inTransaction(() =>
      commitWrites(dbs, () => {
        undo = state.writeSync(first);
      }),
    );
    assert.deepEqual(shown(state.iterate(all)), ['a=1', 'b=2']);
    const second = new BlockState(state);
    second.set(b('a'), b('3'));
    second.del(b('b'));
    assert.throws(
      () =>
        state.inTransaction(() =>
          commitWrites(dbs, () => {
            state.writeSync(second);
            // inside the transaction, its writes
            assert.deepEqual(shown(state.iterate(all)), ['a=3']);
            throw new Error('aborted');
          }),
        ),
      /aborted/,
    );
    assert.deepEqual(shown(state.iterate(all)), ['a=1', 'b=2']);
    assert.deepEqual(shown(new PlainStateDB(dbs.engine).iterate(all)), ['a=1', 'b=2'], 'LMDB holds the same');
    const before = state.get(b('a')) as Buffer;
    const [ranged] = state.iterate(all);
    state.inTransaction(() => commitWrites(dbs, () => state.undoSync(undo)));
    assert.equal(before.toString(), '1', 'a value read before a write keeps its bytes');
    assert.equal(ranged?.value.toString(), '1', 'a value read by range before a write keeps its bytes');
    assert.deepEqual(state.iterate(all), []);
    assert.equal(state.get(b('a')), undefined);
    assert.throws(() => state.writeSync(second), /inside inTransaction only/);
    await closeDatabases(dbs);
  });
});

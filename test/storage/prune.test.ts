import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commitWrites } from '../../src/storage/commit.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { removeHeightsBelow } from '../../src/storage/prune.js';
import { TABLES, tableHeightKey } from '../../src/storage/tables.js';
import { writeBehindOf } from '../../src/storage/write_behind.js';
import { tempDataPath } from '../helpers/state.js';

const table = TABLES.stateDiffs;

const heightsHeld = (dbs: KestrelDatabases): number[] =>
  [...dbs.meta.getKeys({ start: tableHeightKey(table, 0), end: tableHeightKey(table, 2 ** 32 - 1) })].map((key) =>
    Buffer.from(key).readUInt32BE(table.prefix.length),
  );

const writeHeights = (dbs: KestrelDatabases, heights: readonly number[]): void =>
  commitWrites(dbs, (d) => {
    for (const height of heights) d.meta.putSync(tableHeightKey(table, height), Buffer.from([height]));
  });

describe('pruning by height (storage/prune.ts)', () => {
  for (const mode of ['direct transactions', 'write-behind'] as const) {
    it(`${mode}: each prune removes exactly the heights below it, the keys above stay`, async () => {
      const dbs = openDatabases(tempDataPath());
      if (mode === 'write-behind') writeBehindOf(dbs.root)?.begin();
      writeHeights(dbs, [1, 2, 3, 4, 5, 6, 7, 8]);
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 3));
      assert.deepEqual(heightsHeld(dbs), [3, 4, 5, 6, 7, 8]);
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 3));
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 6));
      assert.deepEqual(heightsHeld(dbs), [6, 7, 8]);
      writeHeights(dbs, [9]);
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 9));
      assert.deepEqual(heightsHeld(dbs), [9]);
      // past the mark, a span of up to 16 heights is removed key by key, a longer one read by range
      const upTo40 = Array.from({ length: 31 }, (_, i) => 10 + i);
      writeHeights(dbs, upTo40);
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 35));
      assert.deepEqual(heightsHeld(dbs), [35, 36, 37, 38, 39, 40]);
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 36));
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 38));
      assert.deepEqual(heightsHeld(dbs), [38, 39, 40]);
      await writeBehindOf(dbs.root)?.end();
      assert.deepEqual(heightsHeld(dbs), [38, 39, 40]);
      await closeDatabases(dbs);
    });

    it(`${mode}: a commit that fails after its prune removes nothing, and the next prune removes those heights`, async () => {
      const dbs = openDatabases(tempDataPath());
      if (mode === 'write-behind') writeBehindOf(dbs.root)?.begin();
      writeHeights(dbs, [1, 2, 3, 4, 5]);
      assert.throws(
        () =>
          commitWrites(dbs, (d) => {
            removeHeightsBelow(d.meta, table, 4);
            throw new Error('the block failed after its prune');
          }),
        /the block failed after its prune/,
      );
      assert.deepEqual(heightsHeld(dbs), [1, 2, 3, 4, 5]);
      commitWrites(dbs, (d) => removeHeightsBelow(d.meta, table, 5));
      assert.deepEqual(heightsHeld(dbs), [5]);
      await writeBehindOf(dbs.root)?.end();
      assert.deepEqual(heightsHeld(dbs), [5]);
      await closeDatabases(dbs);
    });
  }
});

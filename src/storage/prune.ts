import { getOrCreate } from '../lib/collections.js';
import type { BinaryDB, KestrelDatabases } from './database.js';
import type { Table } from './tables.js';
import { DATABASE_NAMES, tableHeightKey } from './tables.js';

/**
 * Per database and table, the height below which this process's commits left no key: a prune per block then
 * reads only the heights it newly passed, not every key it removed since the last flush (write-behind keeps
 * them in LMDB until then, and a range read walks them).
 */
const prunedBelow = new WeakMap<BinaryDB, Map<Table, number>>();

/** Up to this many heights past the mark, their keys are removed one by one instead of read by range. */
const REMOVE_BY_KEY = 16;

/**
 * Removes every key of `table` below `height` (pruning); inside the commit's write transaction. The table
 * holds one key a height (tableHeightKey): past a mark, a block's prune removes the one or two heights it
 * newly passed by key, without the cursor and the merge with write-behind's pending writes of a range read
 * (a seventh of an empty block's commit); the first prune of a process, or a long span, reads the range.
 */
export const removeHeightsBelow = (db: BinaryDB, table: Table, height: number): void => {
  const marks = getOrCreate(prunedBelow, db, () => new Map<Table, number>());
  const from = marks.get(table) ?? 0;
  if (height <= from) return;
  if (from > 0 && height - from <= REMOVE_BY_KEY) {
    for (let h = from; h < height; h++) db.removeSync(tableHeightKey(table, h));
  } else {
    for (const key of db.getKeys({ start: tableHeightKey(table, from), end: tableHeightKey(table, height) }))
      db.removeSync(key);
  }
  marks.set(table, height);
};

/** A commit of `dbs` failed: its removals did not happen, so the next prune reads its tables from the start. */
export const forgetPrunedHeights = (dbs: KestrelDatabases): void => {
  for (const name of DATABASE_NAMES) prunedBelow.delete(dbs[name]);
};

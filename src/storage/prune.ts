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

/** Removes every key of `table` below `height` (pruning); inside the commit's write transaction. */
export const removeHeightsBelow = (db: BinaryDB, table: Table, height: number): void => {
  const marks = getOrCreate(prunedBelow, db, () => new Map<Table, number>());
  const from = marks.get(table) ?? 0;
  if (height <= from) return;
  for (const key of db.getKeys({ start: tableHeightKey(table, from), end: tableHeightKey(table, height) }))
    db.removeSync(key);
  marks.set(table, height);
};

/** A commit of `dbs` failed: its removals did not happen, so the next prune reads its tables from the start. */
export const forgetPrunedHeights = (dbs: KestrelDatabases): void => {
  for (const name of DATABASE_NAMES) prunedBelow.delete(dbs[name]);
};

import type { BinaryDB } from './database.js';
import type { Table } from './tables.js';
import { tableHeightKey } from './tables.js';

/** Removes every key of `table` below `height` (pruning); inside the commit's write transaction. */
export const removeHeightsBelow = (db: BinaryDB, table: Table, height: number): void => {
  for (const key of db.getKeys({ start: tableHeightKey(table, 0), end: tableHeightKey(table, height) }))
    db.removeSync(key);
};

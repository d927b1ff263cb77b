import type { BinaryDB } from './database.js';

/** `prefix || height` (uint32 big-endian): keys that sort by height within one prefix. */
export const heightKey = (prefix: Buffer, height: number): Buffer => {
  const out = Buffer.alloc(prefix.length + 4);
  prefix.copy(out);
  out.writeUInt32BE(height, prefix.length);
  return out;
};

/** Removes every `prefix || height` key below `height` (pruning); inside a write transaction when atomicity matters. */
export const removeHeightsBelow = (db: BinaryDB, prefix: Buffer, height: number): void => {
  for (const key of db.getKeys({ start: heightKey(prefix, 0), end: heightKey(prefix, height) })) db.removeSync(key);
};

import type { StateDB } from '../../src/engine/state/state_db.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { encodeHeight } from '../../src/storage/tables.js';

const prefix = Buffer.from('0000000a0000', 'hex');
const keyFor = (n: number): Buffer => Buffer.concat([prefix, sha256(Buffer.from(String(n))).subarray(0, 8)]);

/** Commits one height that sets `perHeight` state entries (deleting a tenth of them again) and records a stand-in block for it. */
export const commitFilledHeight = (db: StateDB, height: number, perHeight: number): Buffer => {
  const block = db.newOverlay();
  for (let i = 0; i < perHeight; i++) {
    const n = height * perHeight + i;
    block.set(keyFor(n), sha256(Buffer.from(`${height}:${i}`)));
    if (i % 10 === 9) block.del(keyFor(n - perHeight));
  }
  const prepared = db.prepare(block);
  return db.commit(prepared, height, (dbs) => dbs.blocks.putSync(encodeHeight(height), prepared.root));
};

/** Heights 0 .. count-1, each by commitFilledHeight: the last height and its root. */
export const commitFilledHeights = (
  db: StateDB,
  count: number,
  perHeight: number,
): { height: number; root: Buffer } => {
  let root: Buffer = Buffer.alloc(0);
  for (let h = 0; h < count; h++) root = commitFilledHeight(db, h, perHeight);
  return { height: count - 1, root };
};

import type { Block } from '../../lib/chain/block.js';
import { decodeBlock, encodeBlock } from '../../lib/chain/block.js';
import { commitWrites } from '../../storage/commit.js';
import type { KestrelDatabases } from '../../storage/database.js';
import { TABLES, tableHeightKey, tableRange } from '../../storage/tables.js';

const tempKey = (height: number): Buffer => tableHeightKey(TABLES.tempBlocks, height);
const EVERY_HEIGHT = tableRange(TABLES.tempBlocks, 4);

/**
 * The blocks a chain switch deleted, by height, in the meta database (Klayr's tempBlocks table).
 * Each is written in the LMDB transaction that deletes it from the chain and removed in the one
 * that commits it again, so at any crash point every block of the old chain is either in the
 * chain or here.
 */
export class TempBlockStore {
  constructor(private readonly dbs: KestrelDatabases) {}

  /** Call inside the write transaction that deletes `block` (Chain.deleteLastBlock's extra writes). */
  save(dbs: KestrelDatabases, block: Block): void {
    dbs.meta.putSync(tempKey(block.header.height), encodeBlock(block));
  }

  /** Call inside the write transaction that commits the block at `height` again. */
  remove(dbs: KestrelDatabases, height: number): void {
    dbs.meta.removeSync(tempKey(height));
  }

  /** Every saved block, lowest height first. */
  all(): Block[] {
    const blocks: Block[] = [];
    for (const { value } of this.dbs.meta.getRange({ start: EVERY_HEIGHT.start, end: EVERY_HEIGHT.end }))
      blocks.push(decodeBlock(Buffer.from(value)));
    return blocks;
  }

  isEmpty(): boolean {
    for (const _ of this.dbs.meta.getKeys({ start: EVERY_HEIGHT.start, end: EVERY_HEIGHT.end, limit: 1 })) return false;
    return true;
  }

  /** Removes every saved block, in one write transaction (none when the table is empty). */
  clear(): void {
    if (this.isEmpty()) return;
    commitWrites(this.dbs, (dbs) => {
      for (const key of dbs.meta.getKeys({ start: EVERY_HEIGHT.start, end: EVERY_HEIGHT.end }))
        dbs.meta.removeSync(key);
    });
  }
}

import type { EncodedLegacyBlock, LegacyBlock, LegacyBracketInfo } from '../../lib/chain/legacy_block.js';
import { decodeLegacyBracketInfo, encodeLegacyBracketInfo, legacyID } from '../../lib/chain/legacy_block.js';
import type { BinaryDB } from '../../storage/database.js';
import { TABLES, tableHeightKey, tableKey } from '../../storage/tables.js';

const ID_LENGTH = 32;

/**
 * The legacy chain's blocks and the brackets' sync progress (klayr-framework's engine/legacy/storage.js
 * over its legacy.db), in the node's `legacy` LMDB database.
 */
export class LegacyStore {
  constructor(private readonly db: BinaryDB) {}

  headerByID(id: Buffer): Buffer | undefined {
    return this.db.get(tableKey(TABLES.legacyBlocksByID, id));
  }

  idAtHeight(height: number): Buffer | undefined {
    if (!Number.isInteger(height) || height < 0 || height > 0xffffffff) return undefined;
    return this.db.get(tableHeightKey(TABLES.legacyBlockIDsByHeight, height));
  }

  transactionByID(id: Buffer): Buffer | undefined {
    return this.db.get(tableKey(TABLES.legacyTransactions, id));
  }

  /** The IDs of a stored block's transactions; undefined when the block has no list. */
  transactionIDsOf(blockID: Buffer): Buffer[] | undefined {
    const joined = this.db.get(tableKey(TABLES.legacyBlockTransactions, blockID));
    if (joined === undefined) return undefined;
    const ids: Buffer[] = [];
    for (let i = 0; i < joined.length; i += ID_LENGTH) ids.push(joined.subarray(i, i + ID_LENGTH));
    return ids;
  }

  /**
   * A block's transactions, in block order; undefined when the list or one of them is missing
   * (Klayr's getTransactionsByBlockID fails then, and its getBlockByID answers an empty payload).
   */
  transactionsOf(blockID: Buffer): Buffer[] | undefined {
    const ids = this.transactionIDsOf(blockID);
    if (ids === undefined) return undefined;
    const transactions: Buffer[] = [];
    for (const id of ids) {
      const tx = this.transactionByID(id);
      if (tx === undefined) return undefined;
      transactions.push(tx);
    }
    return transactions;
  }

  blockByID(id: Buffer): EncodedLegacyBlock | undefined {
    const header = this.headerByID(id);
    if (header === undefined) return undefined;
    return { header, payload: this.transactionsOf(id) ?? [] };
  }

  blockByHeight(height: number): EncodedLegacyBlock | undefined {
    const id = this.idAtHeight(height);
    return id === undefined ? undefined : this.blockByID(id);
  }

  /** The stored blocks with from <= height <= to, highest first (Klayr's reverse range read). */
  blocksBetween(from: number, to: number): EncodedLegacyBlock[] {
    if (from > to || to < 0) return [];
    const start = tableHeightKey(TABLES.legacyBlockIDsByHeight, Math.min(to, 0xffffffff));
    const end = tableHeightKey(TABLES.legacyBlockIDsByHeight, Math.max(from, 0));
    const blocks: EncodedLegacyBlock[] = [];
    for (const { value } of this.db.getRange({ start, end, reverse: true, inclusiveEnd: true })) {
      const block = this.blockByID(value);
      if (block !== undefined) blocks.push(block);
    }
    return blocks;
  }

  bracket(snapshotBlockID: Buffer): LegacyBracketInfo | undefined {
    const bytes = this.db.get(tableKey(TABLES.legacyBrackets, snapshotBlockID));
    return bytes === undefined ? undefined : decodeLegacyBracketInfo(bytes);
  }

  setBracket(snapshotBlockID: Buffer, info: LegacyBracketInfo): void {
    this.db.putSync(tableKey(TABLES.legacyBrackets, snapshotBlockID), encodeLegacyBracketInfo(info));
  }

  /** Blocks (each with its transactions) and the bracket's new progress, in one LMDB transaction. */
  saveBlocks(blocks: readonly LegacyBlock[], progress?: { snapshotBlockID: Buffer; info: LegacyBracketInfo }): void {
    this.db.transactionSync(() => {
      for (const block of blocks) {
        const ids = block.payload.map(legacyID);
        this.db.put(tableKey(TABLES.legacyBlocksByID, block.id), block.headerBytes);
        this.db.put(tableHeightKey(TABLES.legacyBlockIDsByHeight, block.header.height), block.id);
        for (const [i, tx] of block.payload.entries())
          this.db.put(tableKey(TABLES.legacyTransactions, ids[i] as Buffer), tx);
        this.db.put(tableKey(TABLES.legacyBlockTransactions, block.id), Buffer.concat(ids));
      }
      if (progress !== undefined)
        this.db.put(tableKey(TABLES.legacyBrackets, progress.snapshotBlockID), encodeLegacyBracketInfo(progress.info));
    });
  }
}

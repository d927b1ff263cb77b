import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID, decodeBlock, decodeHeaderOfBlock, encodeBlock } from '../../lib/chain/block.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { transactionID } from '../../lib/transaction/index.js';
import type { KestrelDatabases } from '../../storage/database.js';
import { encodeHeight, TABLES, tableHeightKey, tableKey } from '../../storage/tables.js';

const LAST = tableKey(TABLES.lastBlock);
const blockHeightKey = (height: number): Buffer => tableHeightKey(TABLES.blockIDsByHeight, height);
const idKey = (id: Buffer): Buffer => tableKey(TABLES.blocksByID, id);
const txKey = (id: Buffer): Buffer => tableKey(TABLES.transactionBlocks, id);

/** Blocks by ID and height in the `blocks` database; writes go inside the state commit's transaction. */
export class BlockStore {
  constructor(private readonly dbs: KestrelDatabases) {}

  /**
   * Call inside StateDB.commit's transaction (ExtraWrites) so block and state land together.
   * `transactionIDs`: the block's, in order, when the caller has them (an executed block does).
   */
  save(
    dbs: KestrelDatabases,
    block: Block,
    transactionIDs: readonly Buffer[] = block.transactions.map(transactionID),
  ): void {
    if (transactionIDs.length !== block.transactions.length) throw new Error('One ID per transaction is needed');
    const id = blockHeaderID(block.header);
    dbs.blocks.putSync(idKey(id), encodeBlock(block));
    dbs.blocks.putSync(blockHeightKey(block.header.height), id);
    dbs.blocks.putSync(LAST, encodeHeight(block.header.height));
    for (const txID of transactionIDs) dbs.blocks.putSync(txKey(txID), id);
  }

  /** Removes the last block (it must be `block`), inside the write transaction that reverts its state. */
  removeLast(dbs: KestrelDatabases, block: Block): void {
    const { height } = block.header;
    if (this.lastHeight() !== height) throw new Error(`Block at height ${height} is not the last block`);
    dbs.blocks.removeSync(idKey(blockHeaderID(block.header)));
    dbs.blocks.removeSync(blockHeightKey(height));
    for (const tx of block.transactions) dbs.blocks.removeSync(txKey(transactionID(tx)));
    if (height === 0) dbs.blocks.removeSync(LAST);
    else dbs.blocks.putSync(LAST, encodeHeight(height - 1));
  }

  /** A committed transaction by ID, found through the block that includes it. */
  transactionByID(id: Buffer): TransactionObject | undefined {
    const blockID = this.dbs.blocks.get(txKey(id));
    if (blockID === undefined) return undefined;
    return this.byID(blockID)?.transactions.find((tx) => transactionID(tx).equals(id));
  }

  /** Whether a committed block includes the transaction (no block is read). */
  hasTransaction(id: Buffer): boolean {
    return this.dbs.blocks.get(txKey(id)) !== undefined;
  }

  byID(id: Buffer): Block | undefined {
    const bytes = this.dbs.blocks.get(idKey(id));
    return bytes === undefined ? undefined : decodeBlock(bytes);
  }

  /** A block's encoded bytes as stored (what peers are sent). */
  bytesByID(id: Buffer): Buffer | undefined {
    return this.dbs.blocks.get(idKey(id));
  }

  /** The height of a stored block, read from its encoded header. */
  heightOfID(id: Buffer): number | undefined {
    return this.headerByID(id)?.height;
  }

  /** A stored block's header (its transactions are not decoded). */
  headerByID(id: Buffer): BlockHeader | undefined {
    const bytes = this.dbs.blocks.get(idKey(id));
    return bytes === undefined ? undefined : decodeHeaderOfBlock(bytes);
  }

  headerByHeight(height: number): BlockHeader | undefined {
    const id = this.idAtHeight(height);
    return id === undefined ? undefined : this.headerByID(id);
  }

  /** The highest of the given block IDs that this chain holds (Klayr's getHighestCommonBlockID). */
  highestKnownID(ids: readonly Buffer[]): Buffer | undefined {
    let best: { id: Buffer; height: number } | undefined;
    for (const id of ids) {
      const height = this.heightOfID(id);
      if (height !== undefined && (best === undefined || height > best.height)) best = { id, height };
    }
    return best?.id;
  }

  idAtHeight(height: number): Buffer | undefined {
    return this.dbs.blocks.get(blockHeightKey(height));
  }

  byHeight(height: number): Block | undefined {
    const id = this.idAtHeight(height);
    return id === undefined ? undefined : this.byID(id);
  }

  lastHeight(): number | undefined {
    const raw = this.dbs.blocks.get(LAST);
    return raw === undefined ? undefined : raw.readUInt32BE(0);
  }

  last(): Block | undefined {
    const height = this.lastHeight();
    return height === undefined ? undefined : this.byHeight(height);
  }
}

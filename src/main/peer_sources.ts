import type { BlockStore } from '../engine/chain/block_store.js';
import type { Chain } from '../engine/chain/chain.js';
import type { LegacyStore } from '../engine/legacy/legacy_store.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import type { TransactionPool } from '../engine/txpool/index.js';
import { ingestTransaction } from '../engine/txpool/ingest.js';
import type { TransactionVerifier } from '../engine/txpool/transaction_verifier.js';
import { encodeBlock } from '../lib/chain/block.js';
import { decodeLegacyBlockHeader, encodeLegacyBlock } from '../lib/chain/legacy_block.js';
import {
  decodeTransaction,
  encodeTransaction,
  prepareTransaction,
  validateTransaction,
} from '../lib/transaction/index.js';
import type { ChainSource } from '../network/protocol/block_procedures.js';
import type { LegacyBlockSource } from '../network/protocol/legacy_procedures.js';
import type { TransactionSource } from '../network/protocol/transaction_procedures.js';

/** The chain as peers read it: blocks as stored, by ID and height. */
export const chainSource = (chain: Chain, blocks: BlockStore): ChainSource => ({
  lastBlockBytes: () => encodeBlock(chain.lastBlock()),
  heightOfID: (id) => blocks.heightOfID(id),
  blockBytesAtHeight: (height) => {
    const id = blocks.idAtHeight(height);
    return id === undefined ? undefined : blocks.bytesByID(id);
  },
  highestKnownID: (ids) => blocks.highestKnownID(ids),
});

/** The pool and the chain's transactions as peers read them, and transactions from peers checked and pooled. */
export const transactionSource = (
  pool: TransactionPool,
  blocks: BlockStore,
  verifier: TransactionVerifier,
  signatures: SignatureVerifier,
): TransactionSource => ({
  bytesByID: (id) => {
    const pooled = pool.get(id)?.transaction;
    if (pooled !== undefined) return encodeTransaction(pooled);
    const committed = blocks.transactionByID(id);
    return committed === undefined ? undefined : encodeTransaction(committed);
  },
  knows: (id) => pool.contains(id) || blocks.hasTransaction(id),
  processable: (limit) =>
    [...pool.getProcessableTransactions().values()]
      .flat()
      .slice(0, limit)
      .map((p) => encodeTransaction(p.transaction)),
  receive: async (bytes) => {
    const tx = decodeTransaction(bytes);
    validateTransaction(tx);
    try {
      await ingestTransaction(verifier, pool, signatures, prepareTransaction(tx, bytes));
      return 'added';
    } catch {
      return 'invalid';
    }
  },
});

/** The legacy chain as peers read it: the brackets' progress and the stored legacy blocks. */
export const legacySource = (store: LegacyStore): LegacyBlockSource => ({
  bracket: (snapshotBlockID) => store.bracket(snapshotBlockID),
  heightOfID: (id) => {
    const header = store.headerByID(id);
    return header === undefined ? undefined : decodeLegacyBlockHeader(header).height;
  },
  blocksBetween: (from, to) => store.blocksBetween(from, to).map(encodeLegacyBlock),
});

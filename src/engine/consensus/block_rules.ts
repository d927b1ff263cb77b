import type { Block } from '../../lib/chain/block.js';
import { validateBlock } from '../../lib/chain/block.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import { prepareTransactions, validateTransaction } from '../../lib/transaction/index.js';

/** Block version of Klayr SDK v6 blocks after genesis. */
export const BLOCK_VERSION = 2;

/** A received block's own rules (schema, transactions, size, version), before any state is read; its transactions prepared. */
export const validatedTransactions = (block: Block, maxTransactionsSize: number): PreparedTransaction[] => {
  const prepared = prepareTransactions(block.transactions);
  validateBlock(
    block,
    validateTransaction,
    prepared.map((p) => p.id),
  );
  const size = prepared.reduce((s, tx) => s + tx.bytes.length, 0);
  if (size > maxTransactionsSize)
    throw new Error(`Transactions in the block exceed maxTransactionsSize ${maxTransactionsSize}`);
  if (block.header.version !== BLOCK_VERSION) throw new Error(`Block version must be ${BLOCK_VERSION}`);
  return prepared;
};

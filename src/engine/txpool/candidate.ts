import { sha256 } from '../../lib/crypto/hash.js';
import { encodeTransaction, senderAddress } from '../../lib/transaction/transaction.js';
import type { TransactionObject } from '../../lib/transaction/schema.js';
import type { PoolCandidate } from './types.js';

/**
 * Derives encoding, ID and sender once. `bytes`, when the caller already holds them (a
 * transaction decoded from the wire), must be the transaction's own encoding.
 */
export const prepareCandidate = (transaction: TransactionObject, bytes: Buffer = encodeTransaction(transaction)): PoolCandidate => ({
  transaction,
  bytes,
  id: sha256(bytes),
  senderAddress: senderAddress(transaction),
});

/** Fee per byte above the minimum fee, truncated: Klayr 6's `fee / size` when minFee is 0. */
export const computeFeePriority = (candidate: PoolCandidate, minFee: bigint): bigint =>
  (candidate.transaction.fee - minFee) / BigInt(candidate.bytes.length);

import { sha256 } from '../crypto/hash.js';
import type { TransactionObject } from './schema.js';
import { encodeTransaction, senderAddress } from './transaction.js';

/** A transaction with its encoding, ID and sender derived once, for everything that needs them (pool, verification, blocks). */
export interface PreparedTransaction {
  readonly transaction: TransactionObject;
  readonly bytes: Buffer;
  readonly id: Buffer;
  readonly senderAddress: Buffer;
}

/** `bytes`, when the caller already holds them (a transaction decoded from the wire), must be the transaction's own encoding. */
export const prepareTransaction = (
  transaction: TransactionObject,
  bytes: Buffer = encodeTransaction(transaction),
): PreparedTransaction => ({
  transaction,
  bytes,
  id: sha256(bytes),
  senderAddress: senderAddress(transaction),
});

const isPrepared = (input: TransactionObject | PreparedTransaction): input is PreparedTransaction =>
  'bytes' in input && 'id' in input;

export const asPrepared = (input: TransactionObject | PreparedTransaction): PreparedTransaction =>
  isPrepared(input) ? input : prepareTransaction(input);

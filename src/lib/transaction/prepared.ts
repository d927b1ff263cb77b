import { addressesFromPublicKeys, assertPublicKey } from '../crypto/address.js';
import { sha256 } from '../crypto/hash.js';
import { sha256Each } from '../crypto/sha256_x4.js';
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

/** prepareTransaction of each of a block's transactions, their IDs and their senders' addresses hashed in a batch each. */
export const prepareTransactions = (transactions: readonly TransactionObject[]): PreparedTransaction[] => {
  const encoded = transactions.map((tx) => {
    const bytes = encodeTransaction(tx);
    // prepareTransaction's order of failures: a transaction's encoding, then its sender's key, then the next one's
    assertPublicKey(tx.senderPublicKey);
    return bytes;
  });
  const ids = sha256Each(encoded);
  const senders = addressesFromPublicKeys(transactions.map((tx) => tx.senderPublicKey));
  return transactions.map((transaction, i) => ({
    transaction,
    bytes: encoded[i] as Buffer,
    id: ids[i] as Buffer,
    senderAddress: senders[i] as Buffer,
  }));
};

const isPrepared = (input: TransactionObject | PreparedTransaction): input is PreparedTransaction =>
  'bytes' in input && 'id' in input;

export const asPrepared = (input: TransactionObject | PreparedTransaction): PreparedTransaction =>
  isPrepared(input) ? input : prepareTransaction(input);

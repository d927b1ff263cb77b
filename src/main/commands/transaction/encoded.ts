/** What transaction:create, :sign and :send share once they run (loaded by their actions, not at start-up). */

import type { TransactionObject } from '../../../lib/transaction/index.js';
import {
  decodeTransaction,
  encodeTransaction,
  transactionToJSON,
  validateTransaction,
} from '../../../lib/transaction/index.js';
import { printJSON } from '../node_client.js';

export const parseTransaction = (hex: string): TransactionObject => {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new Error('The transaction must be hex.');
  const tx = decodeTransaction(Buffer.from(hex, 'hex'));
  validateTransaction(tx);
  return tx;
};

/** The transaction as hex (`{ transaction }`) or, with --json, as JSON. */
export const printTransaction = (tx: TransactionObject, json: boolean | undefined): void =>
  printJSON(json === true ? transactionToJSON(tx) : { transaction: encodeTransaction(tx).toString('hex') });

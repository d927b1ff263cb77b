// Piscina task: transaction signature checks (single or multisignature rules) for a batch.
import { decodeTransaction, verifyTransactionSignatures } from '../lib/transaction/index.js';
import type { MultisigKeys } from '../lib/transaction/index.js';

export interface SignatureBatch {
  chainID: Uint8Array;
  transactions: Uint8Array[];
  /** The sender's multisignature keys, null for a single-signature account. */
  accounts: (MultisigKeys | null)[];
}

const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** For each transaction: undefined when its signatures are valid, otherwise why not. */
export const verifySignatureBatch = ({ chainID, transactions, accounts }: SignatureBatch): (string | undefined)[] =>
  transactions.map((bytes, i) => {
    try {
      const account = accounts[i];
      const keys = account === null || account === undefined ? undefined : { ...account, mandatoryKeys: account.mandatoryKeys.map(toBuffer), optionalKeys: account.optionalKeys.map(toBuffer) };
      verifyTransactionSignatures(decodeTransaction(bytes), chainID, keys);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  });

export default verifySignatureBatch;

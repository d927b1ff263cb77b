// ThreadPool task: transaction signature checks (single or multisignature rules) for a batch.
import { decodeTransaction, signingBytesOfEncoded, verifyTransactionSignatures } from '../lib/transaction/index.js';
import type { MultisigKeys } from '../lib/transaction/index.js';

export interface SignatureBatch {
  chainID: Uint8Array;
  /** The transactions' encodings end to end: one buffer crosses to the worker instead of one per transaction. */
  packed: Uint8Array;
  lengths: number[];
  /** The sender's multisignature keys, null for a single-signature account. */
  accounts: (MultisigKeys | null)[];
}

/** `packed` owns its memory (never a slice of Node's shared buffer pool), so its ArrayBuffer may be transferred. */
export const packBatch = (chainID: Uint8Array, transactions: readonly Uint8Array[], accounts: (MultisigKeys | null)[]): SignatureBatch => {
  const lengths = transactions.map((t) => t.length);
  const packed = Buffer.allocUnsafeSlow(lengths.reduce((a, b) => a + b, 0));
  let offset = 0;
  for (const t of transactions) {
    packed.set(t, offset);
    offset += t.length;
  }
  return { chainID, packed, lengths, accounts };
};

const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** For each transaction: undefined when its signatures are valid, otherwise why not. */
export const verifySignatureBatch = ({ chainID, packed, lengths, accounts }: SignatureBatch): (string | undefined)[] => {
  let offset = 0;
  return lengths.map((length, i) => {
    const bytes = toBuffer(packed).subarray(offset, offset + length);
    offset += length;
    try {
      const account = accounts[i];
      const keys = account === null || account === undefined ? undefined : { ...account, mandatoryKeys: account.mandatoryKeys.map(toBuffer), optionalKeys: account.optionalKeys.map(toBuffer) };
      const tx = decodeTransaction(bytes);
      verifyTransactionSignatures(tx, chainID, keys, signingBytesOfEncoded(tx, bytes));
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  });
};

export default verifySignatureBatch;

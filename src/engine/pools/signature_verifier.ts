import { verifyDetached } from '../../lib/crypto/ed25519.js';
import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';
import type { MultisigKeys, PreparedTransaction } from '../../lib/transaction/index.js';
import { signingBytesOfEncoded, verifyTransactionSignatures } from '../../lib/transaction/index.js';

export type { PoolStats } from '../../lib/pool_stats.js';

/** ed25519 checks of transactions' signatures (the `verify` pool in a node). */
export interface SignatureVerifier {
  /**
   * Checks a transaction's signatures by the auth module's rules for the sender's multisignature
   * keys (undefined: a single-signature account): undefined when valid, otherwise why not.
   */
  verify(tx: PreparedTransaction, keys: MultisigKeys | undefined): Promise<string | undefined>;
  /** One ed25519 signature of a 32-byte digest (a block header's): whether it verifies under `key`. */
  verifyDigest(digest: Buffer, signature: Buffer, key: Buffer): Promise<boolean>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** The auth module's rule on the calling thread: Klayr's message when it fails, undefined when it holds. */
export const signatureCheckFailure = (
  chainID: Uint8Array,
  tx: PreparedTransaction,
  keys: MultisigKeys | undefined,
): string | undefined => {
  try {
    verifyTransactionSignatures(tx.transaction, chainID, keys, signingBytesOfEncoded(tx.transaction, tx.bytes));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

/** On the calling thread (tests, tools, the chain's synchronous APIs). */
export const createLocalSignatureVerifier = (chainID: Uint8Array): SignatureVerifier => {
  const tally = new TaskTally();
  return {
    verify: async (tx, keys) => tally.timeSync(() => signatureCheckFailure(chainID, tx, keys)),
    verifyDigest: async (digest, signature, key) => tally.timeSync(() => verifyDetached(digest, signature, key)),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};

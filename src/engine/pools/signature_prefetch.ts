import type { PoolStats } from '../../lib/pool_stats.js';
import type { MultisigKeys, PreparedTransaction } from '../../lib/transaction/index.js';
import type { SignatureVerifier } from './signature_verifier.js';

/**
 * A SignatureVerifier that can check transactions ahead of their execution: block
 * synchronization hands it the next batch's transactions while the current batch executes, so
 * the `verify` pool works while the main thread executes. A prefetched verdict answers a check of
 * a single-signature sender (the keys are known only at execution: a multisignature account's
 * check goes to the pool then); anything else is asked of the inner verifier.
 */
export class PrefetchingSignatureVerifier implements SignatureVerifier {
  readonly #ahead = new Map<string, Promise<string | undefined>>();

  constructor(private readonly inner: SignatureVerifier) {}

  /** Starts the single-signature checks of transactions that will execute soon. */
  prefetch(transactions: readonly PreparedTransaction[]): void {
    for (const tx of transactions) {
      const key = tx.id.toString('latin1');
      if (this.#ahead.has(key)) continue;
      const verdict = this.inner.verify(tx, undefined);
      // a verdict nobody asks for (the block failed first, a multisignature sender) must not be an unhandled rejection
      verdict.catch(() => undefined);
      this.#ahead.set(key, verdict);
    }
  }

  verify(tx: PreparedTransaction, keys: MultisigKeys | undefined): Promise<string | undefined> {
    const key = tx.id.toString('latin1');
    const ahead = this.#ahead.get(key);
    this.#ahead.delete(key);
    return keys === undefined && ahead !== undefined ? ahead : this.inner.verify(tx, keys);
  }

  verifyDigest(digest: Buffer, signature: Buffer, key: Buffer): Promise<boolean> {
    return this.inner.verifyDigest(digest, signature, key);
  }

  /** Forgets verdicts no execution asked for (a synchronization that ended early). */
  clear(): void {
    this.#ahead.clear();
  }

  stats(): PoolStats {
    return this.inner.stats();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * `verifier` with the single-signature checks of `transactions` started now: a received block's, so that
 * the `verify` pool checks them while the main thread verifies its header and executes it.
 */
export const checkingAhead = (
  verifier: SignatureVerifier,
  transactions: readonly PreparedTransaction[],
): PrefetchingSignatureVerifier => {
  const ahead = new PrefetchingSignatureVerifier(verifier);
  ahead.prefetch(transactions);
  return ahead;
};

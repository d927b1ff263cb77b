import { availableParallelism } from 'node:os';
import { workerPool } from './piscina_pool.js';
import { BLSKeyCache } from '../lib/crypto/bls_key_cache.js';
import type { WeightedAggregateRequest } from '../lib/crypto/bls_key_cache.js';

/** Aggregate-signature verification; the engine depends on this, never on Piscina. */
export interface BLSVerifier {
  verifyWeighted(request: WeightedAggregateRequest): Promise<boolean>;
  queueSize(): number;
  close(): Promise<void>;
}

/** On the calling thread, with a key cache (tests, small nodes). */
export const createLocalBLSVerifier = (): BLSVerifier => {
  const cache = new BLSKeyCache();
  return { verifyWeighted: async (request) => cache.verifyWeighted(request), queueSize: () => 0, close: async () => undefined };
};

/** The `bls` pool: worker threads, each with its own key cache. */
export const createPooledBLSVerifier = (threads = Math.max(1, availableParallelism() - 1)): BLSVerifier => {
  const pool = workerPool('bls_task.js', threads);
  return {
    verifyWeighted: async (request) => (await pool.run(request)) as boolean,
    queueSize: () => pool.queueSize,
    close: () => pool.destroy(),
  };
};

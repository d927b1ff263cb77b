import { availableParallelism } from 'node:os';
import { rememberPopVerifications } from '../lib/crypto/bls.js';
import { workerPool } from './piscina_pool.js';
import type { PopItem } from './pop_task.js';

/**
 * Checks proofs of possession on all cores and remembers the results for blsPopVerify, so that
 * processing a genesis block (100+ validators, each a pairing in JavaScript) does not check them
 * one by one on the main thread.
 */
export const prefetchProofsOfPossession = async (items: readonly PopItem[], threads = availableParallelism()): Promise<void> => {
  if (items.length === 0) return;
  const pool = workerPool('pop_task.js', threads, { minThreads: threads });
  try {
    const size = Math.ceil(items.length / (threads * 2));
    const chunks = Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
    const verdicts = await Promise.all(chunks.map((chunk) => pool.run(chunk) as Promise<boolean[]>));
    rememberPopVerifications(chunks.flatMap((chunk, i) => chunk.map((item, j) => ({ ...item, valid: verdicts[i]![j]! }))));
  } finally {
    await pool.destroy();
  }
};

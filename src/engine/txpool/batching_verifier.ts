import type { PoolCandidate, Verdict, VerifyTransaction } from './types.js';

export type VerifyBatch = (candidates: readonly PoolCandidate[]) => Promise<readonly Verdict[]>;

interface Waiting {
  readonly candidate: PoolCandidate;
  readonly resolve: (verdict: Verdict) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A VerifyTransaction that gathers the candidates asked for until the event loop's check phase
 * (every add started by the I/O callbacks of one poll) and verifies them in batches of at most
 * `maxBatchSize`, e.g. one message per batch to a signature-checking worker.
 */
export const batchingVerifier = (verifyBatch: VerifyBatch, maxBatchSize = 256): VerifyTransaction => {
  if (!Number.isSafeInteger(maxBatchSize) || maxBatchSize < 1) throw new RangeError(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  let waiting: Waiting[] = [];

  const settle = async (batch: readonly Waiting[]): Promise<void> => {
    try {
      const verdicts = await verifyBatch(batch.map((w) => w.candidate));
      if (verdicts.length !== batch.length) throw new Error(`verifyBatch returned ${verdicts.length} verdicts for ${batch.length} transactions`);
      batch.forEach((w, i) => w.resolve(verdicts[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  const flush = (): void => {
    const all = waiting;
    waiting = [];
    for (let i = 0; i < all.length; i += maxBatchSize) void settle(all.slice(i, i + maxBatchSize));
  };

  return (candidate) =>
    new Promise<Verdict>((resolve, reject) => {
      waiting.push({ candidate, resolve, reject });
      if (waiting.length === 1) setImmediate(flush);
    });
};

import type { PoolCandidate, Verdict, VerifyTransaction } from './types.js';

export type VerifyBatch = (candidates: readonly PoolCandidate[]) => Promise<readonly Verdict[]>;

interface Waiting {
  readonly candidate: PoolCandidate;
  readonly resolve: (verdict: Verdict) => void;
  readonly reject: (error: unknown) => void;
}

/** Batches smaller than this cost more in messages than they gain in overlap. */
const MIN_SPLIT_BATCH = 8;
/** Batches per verifying thread in one turn: the first ones come back (and go on to the main thread's checks) while the rest are still being verified. */
const BATCHES_PER_THREAD = 4;

/**
 * A VerifyTransaction that gathers the candidates asked for until the event loop's check phase
 * (every add started by the I/O callbacks of one poll) and verifies them in batches, e.g. one
 * message per batch to a signature-checking worker. A turn's candidates are split so that each
 * of `parallelism` threads gets several batches, none larger than `maxBatchSize`.
 */
export const batchingVerifier = (verifyBatch: VerifyBatch, maxBatchSize = 256, parallelism = 1): VerifyTransaction => {
  if (!Number.isSafeInteger(maxBatchSize) || maxBatchSize < 1) throw new RangeError(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  if (!Number.isSafeInteger(parallelism) || parallelism < 1) throw new RangeError(`parallelism must be a positive integer, got ${parallelism}`);
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
    const size = Math.min(maxBatchSize, Math.max(MIN_SPLIT_BATCH, Math.ceil(all.length / (parallelism * BATCHES_PER_THREAD))));
    for (let i = 0; i < all.length; i += size) void settle(all.slice(i, i + size));
  };

  return (candidate) =>
    new Promise<Verdict>((resolve, reject) => {
      waiting.push({ candidate, resolve, reject });
      if (waiting.length === 1) setImmediate(flush);
    });
};

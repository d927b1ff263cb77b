interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/** Batches smaller than this cost more in messages than they gain in overlap. */
const MIN_SPLIT_BATCH = 8;
/** Batches per thread in one turn: the first ones come back (and go on to the main thread's work) while the rest are still running. */
const BATCHES_PER_THREAD = 4;

/**
 * Gathers the items asked for until the event loop's check phase (every call made by the I/O
 * callbacks of one poll) and runs them in batches, e.g. one message per batch to a worker. A
 * turn's items are split so that each of `parallelism` threads gets several batches, none larger
 * than `maxBatchSize`. Once `eagerBatchSize` items wait, they go at once: the threads start while
 * this one is still preparing the rest of a burst.
 */
export const batching = <T, R>(
  runBatch: (items: readonly T[]) => Promise<readonly R[]>,
  maxBatchSize = 256,
  parallelism = 1,
  eagerBatchSize = Infinity,
): ((item: T) => Promise<R>) => {
  if (!Number.isSafeInteger(maxBatchSize) || maxBatchSize < 1)
    throw new RangeError(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  if (!Number.isSafeInteger(parallelism) || parallelism < 1)
    throw new RangeError(`parallelism must be a positive integer, got ${parallelism}`);
  let waiting: Waiting<T, R>[] = [];

  const settle = async (batch: readonly Waiting<T, R>[]): Promise<void> => {
    try {
      const results = await runBatch(batch.map((w) => w.item));
      if (results.length !== batch.length)
        throw new Error(`the batch returned ${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => {
        w.resolve(results[i]);
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const all = waiting;
    waiting = [];
    const size = Math.min(
      maxBatchSize,
      Math.max(MIN_SPLIT_BATCH, Math.ceil(all.length / (parallelism * BATCHES_PER_THREAD))),
    );
    for (let i = 0; i < all.length; i += size) void settle(all.slice(i, i + size));
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (waiting.length >= eagerBatchSize) {
        const batch = waiting;
        waiting = [];
        void settle(batch);
      } else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
};

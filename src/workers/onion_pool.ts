import { availableParallelism } from 'node:os';
import type { PoolStats } from '../lib/pool_stats.js';
import { TaskTally } from '../lib/pool_stats.js';
import { workerPool } from './piscina_pool.js';

const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** The `onion` pool (an OnionGenerator): long onions (up to 10,000,000 hashes) never block block generation or RPC. */
export const createPooledOnionGenerator = (threads = Math.max(1, availableParallelism() - 1)) => {
  const pool = workerPool('onion_task.js', threads, { minThreads: 0, idleTimeout: 5000 });
  const tally = new TaskTally();
  return {
    generate: async (request: { seed: Uint8Array; count: number; distance: number }) =>
      (await tally.time(() => pool.run(request) as Promise<Uint8Array[]>)).map(toBuffer),
    stats: (): PoolStats => tally.stats(pool.queueSize),
    close: () => pool.destroy(),
  };
};

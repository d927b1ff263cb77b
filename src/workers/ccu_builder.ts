import type { CCUBuildRequest, CCUBuildResult } from '../lib/interop/ccu_build.js';
import { reviveBuffers } from '../lib/interop/ccu_build.js';
import type { PoolStats } from '../lib/pool_stats.js';
import { TaskTally } from '../lib/pool_stats.js';
import { ThreadPool } from './thread_pool.js';

/**
 * The `ccu` pool: a CCUBuilder (src/engine/pools/ccu_builder.ts) whose threads open the node's
 * environment read-only. Bare worker threads (ThreadPool, as the verify pool) rather than
 * Piscina, whose 70-250 µs of CPU per task (thread_pool.ts) is a good part of building a CCU
 * with a few CCMs.
 */
export const createPooledCCUBuilder = (threads = 1) => {
  const pool = new ThreadPool<CCUBuildRequest, CCUBuildResult | undefined>('ccu_task.js', threads);
  const tally = new TaskTally();
  return {
    build: async (request: CCUBuildRequest): Promise<CCUBuildResult | undefined> => {
      const result = (await tally.time(() => pool.run(request))) ?? undefined;
      return result === undefined ? undefined : reviveBuffers(result);
    },
    stats: (): PoolStats => tally.stats(pool.queueSize),
    close: () => pool.close(),
  };
};

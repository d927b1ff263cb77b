import { availableParallelism } from 'node:os';
import type { PoolStats } from '../lib/pool_stats.js';
import { TaskTally } from '../lib/pool_stats.js';
import type { SMTProof } from '../lib/tree/index.js';
import { destroyLoaded, workerPool } from './piscina_pool.js';

interface Request {
  dataPath: string;
  height?: number;
  expectedRoot: Uint8Array;
  keys: Uint8Array[];
}

// Buffers cross the thread boundary as plain Uint8Arrays
const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
const revive = (r: SMTProof & { root: Uint8Array }) => ({
  root: toBuffer(r.root),
  siblingHashes: r.siblingHashes.map(toBuffer),
  queries: r.queries.map((q) => ({ key: toBuffer(q.key), value: toBuffer(q.value), bitmap: toBuffer(q.bitmap) })),
});

/** The `proofs` pool: a StateProver whose threads open the node's environment read-only. */
export const createPooledStateProver = (threads = Math.max(1, availableParallelism() - 1)) => {
  const pool = workerPool('state_proof_task.js', threads);
  const tally = new TaskTally();
  return {
    prove: async (request: Request) =>
      revive(await tally.time(() => pool.run(request) as Promise<SMTProof & { root: Uint8Array }>)),
    stats: (): PoolStats => tally.stats(pool.queueSize),
    close: () => destroyLoaded(pool),
  };
};

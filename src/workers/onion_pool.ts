import { availableParallelism } from 'node:os';
import { workerPool } from './piscina_pool.js';
import type { OnionRequest } from './onion_task.js';
import { computeOnion } from './onion_task.js';

/** Hash onion generation; the engine depends on this, never on Piscina. */
export interface OnionGenerator {
  generate(request: OnionRequest): Promise<Buffer[]>;
  close(): Promise<void>;
}

const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export const createLocalOnionGenerator = (): OnionGenerator => ({ generate: async (request) => computeOnion(request), close: async () => undefined });

/** The `onion` pool: long onions (up to 10,000,000 hashes) never block block generation or RPC. */
export const createPooledOnionGenerator = (threads = Math.max(1, availableParallelism() - 1)): OnionGenerator => {
  const pool = workerPool('onion_task.js', threads, { minThreads: 0, idleTimeout: 5000 });
  return {
    generate: async (request) => ((await pool.run(request)) as Uint8Array[]).map(toBuffer),
    close: () => pool.destroy(),
  };
};

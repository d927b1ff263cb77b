import { hashOnion } from '../../lib/crypto/hash_onion.js';
import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';

export interface OnionRequest {
  seed: Uint8Array;
  count: number;
  distance: number;
}

/** Hash onion generation (the `onion` pool in a node). */
export interface OnionGenerator {
  /** The onion's checkpoints, every `distance` hashes of `count`. */
  generate(request: OnionRequest): Promise<Buffer[]>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** On the calling thread (tests, tools). */
export const createLocalOnionGenerator = (): OnionGenerator => {
  const tally = new TaskTally();
  return {
    generate: async ({ seed, count, distance }) => tally.timeSync(() => hashOnion(seed, count, distance)),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};

import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';
import type { StateProofRequest, StateProofResponse } from '../../storage/snapshot.js';
import { proveState } from '../../storage/snapshot.js';

export type { StateProofRequest, StateProofResponse } from '../../storage/snapshot.js';

/** Proofs of state keys from committed storage (the `proofs` pool in a node). */
export interface StateProver {
  prove(request: StateProofRequest): Promise<StateProofResponse>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** On the calling thread (tests, tools). */
export const createLocalStateProver = (): StateProver => {
  const tally = new TaskTally();
  return {
    prove: async (request) => tally.timeSync(() => proveState(request)),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};

import type { CCUBuildRequest, CCUBuildResult, SnapshotProver } from '../../lib/interop/ccu_build.js';
import { buildCCU } from '../../lib/interop/ccu_build.js';
import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';
import { readOnlySnapshot } from '../../storage/snapshot.js';

export type { CCUBuildRequest, CCUBuildResult } from '../../lib/interop/ccu_build.js';

/**
 * CCUs built from a committed LMDB snapshot of the sending chain (the `ccu` pool in a node):
 * the outbox-root witness is proved at the certificate's height against its stateRoot, and a
 * store whose root there differs is refused.
 */
export interface CCUBuilder {
  build(request: CCUBuildRequest): Promise<CCUBuildResult | undefined>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** Proofs from the data path's environment opened read-only on the calling thread. */
export const snapshotProver =
  (dataPath: string): SnapshotProver =>
  (height, expectedRoot, keys) =>
    readOnlySnapshot(dataPath, height, expectedRoot).prove(keys);

/** On the calling thread (tests, tools). */
export const createLocalCCUBuilder = (): CCUBuilder => {
  const tally = new TaskTally();
  return {
    build: async (request) => tally.timeSync(() => buildCCU(request, snapshotProver(request.dataPath))),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};

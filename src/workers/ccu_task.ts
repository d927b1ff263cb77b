// Piscina task of the `ccu` pool: builds a CCU, proving the outbox root from the node's LMDB environment opened read-only (once per thread).

import type { CCUBuildRequest, CCUBuildResult } from '../lib/interop/ccu_build.js';
import { buildCCU, reviveBuffers } from '../lib/interop/ccu_build.js';
import { readOnlySnapshot } from '../storage/snapshot.js';

export default (request: CCUBuildRequest): CCUBuildResult | undefined => {
  const revived = reviveBuffers(request);
  return buildCCU(revived, (height, expectedRoot, keys) =>
    readOnlySnapshot(revived.dataPath, height, expectedRoot).prove(keys),
  );
};

import type { PoolCandidate } from './types.js';

/** Fee per byte above the minimum fee, truncated: Klayr 6's `fee / size` when minFee is 0. */
export const computeFeePriority = (candidate: PoolCandidate, minFee: bigint): bigint =>
  (candidate.transaction.fee - minFee) / BigInt(candidate.bytes.length);

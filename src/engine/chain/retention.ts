/**
 * Where data kept for `keep` heights (events, inclusion proofs) may be pruned below, as Klayr
 * prunes it: `keep` heights under the block being committed, never above the precommitted height.
 */
export const prunableBelow = (maxHeightPrecommitted: number, height: number, keep: number): number =>
  Math.min(maxHeightPrecommitted, Math.max(0, height - keep));

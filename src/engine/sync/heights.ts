/**
 * The heights whose block IDs are offered to a peer to find the highest common block (Klayr's
 * computeBlockHeightsList): the last height of each of `listSizeLimit` rounds going down from
 * the round before `currentRound`; heights at or below the finalized one are replaced by the
 * finalized height itself, listed last.
 */
export const computeBlockHeightsList = (
  finalizedHeight: number,
  activeValidators: number,
  listSizeLimit: number,
  currentRound: number,
): number[] => {
  const startingHeight = Math.max((currentRound - 1) * activeValidators, 0);
  const heights: number[] = [];
  for (let i = 0; i < listSizeLimit; i++) {
    const height = startingHeight - i * activeValidators;
    if (height >= 0) heights.push(height);
  }
  const aboveFinalized = heights.filter((height) => height > finalizedHeight);
  return aboveFinalized.length === heights.length ? aboveFinalized : [...aboveFinalized, finalizedHeight];
};

/** The items sharing the greatest value of `by` (Klayr's computeLargestSubsetMaxBy), in their order. */
export const largestSubsetMaxBy = <T>(items: readonly T[], by: (item: T) => number): T[] => {
  const max = Math.max(...items.map(by));
  return items.filter((item) => by(item) === max);
};

/** The heights of the last two rounds down from `tipHeight` (FastChainSwitchingMechanism's _computeLastTwoRoundsHeights). */
export const lastTwoRoundsHeights = (tipHeight: number, validators: number): number[] =>
  Array.from({ length: Math.min(validators * 2, tipHeight + 1) }, (_, i) => tipHeight - i);

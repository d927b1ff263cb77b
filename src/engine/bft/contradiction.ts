import type { BFTHeader, IdentifiedBFTHeader } from './types.js';

/** Whether `a` must be ordered after `b` (LIP 0058: by maxHeightGenerated, then maxHeightPrevoted, then height). */
const isLaterThan = (a: BFTHeader, b: BFTHeader): boolean => {
  if (a.maxHeightGenerated !== b.maxHeightGenerated) return a.maxHeightGenerated > b.maxHeightGenerated;
  if (a.maxHeightPrevoted !== b.maxHeightPrevoted) return a.maxHeightPrevoted > b.maxHeightPrevoted;
  return a.height > b.height;
};

/** LIP 0058: whether two different headers by the same generator prove a protocol violation. */
export const areDistinctHeadersContradicting = (header1: BFTHeader, header2: BFTHeader): boolean => {
  const [earlier, later] = isLaterThan(header1, header2) ? [header2, header1] : [header1, header2];
  if (!earlier.generatorAddress.equals(later.generatorAddress)) return false;
  // the same block height generated twice, or a chain switch the later header does not admit to
  if (earlier.maxHeightPrevoted === later.maxHeightPrevoted && earlier.height >= later.height) return true;
  if (earlier.height > later.maxHeightGenerated) return true;
  return earlier.maxHeightPrevoted > later.maxHeightPrevoted;
};

/** Like areDistinctHeadersContradicting, but a header never contradicts itself. */
export const areHeadersContradicting = (header1: IdentifiedBFTHeader, header2: IdentifiedBFTHeader): boolean =>
  !header1.id.equals(header2.id) && areDistinctHeadersContradicting(header1, header2);

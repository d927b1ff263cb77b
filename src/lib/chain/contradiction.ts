/** The header properties the contradiction rule reads (a full BlockHeader and the engine's BFTHeader satisfy it). */
export interface ContradictionHeader {
  height: number;
  generatorAddress: Buffer;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

/** A header with its block ID, for telling two distinct headers apart. */
export interface IdentifiedContradictionHeader extends ContradictionHeader {
  id: Buffer;
}

/** Whether `a` must be ordered after `b` (LIP 0058: by maxHeightGenerated, then maxHeightPrevoted, then height). */
const isLaterThan = (a: ContradictionHeader, b: ContradictionHeader): boolean => {
  if (a.maxHeightGenerated !== b.maxHeightGenerated) return a.maxHeightGenerated > b.maxHeightGenerated;
  if (a.maxHeightPrevoted !== b.maxHeightPrevoted) return a.maxHeightPrevoted > b.maxHeightPrevoted;
  return a.height > b.height;
};

/** LIP 0058: whether two different headers by the same generator prove a protocol violation. */
export const areDistinctHeadersContradicting = (
  header1: ContradictionHeader,
  header2: ContradictionHeader,
): boolean => {
  const [earlier, later] = isLaterThan(header1, header2) ? [header2, header1] : [header1, header2];
  if (!earlier.generatorAddress.equals(later.generatorAddress)) return false;
  // the same block height generated twice, or a chain switch the later header does not admit to
  if (earlier.maxHeightPrevoted === later.maxHeightPrevoted && earlier.height >= later.height) return true;
  if (earlier.height > later.maxHeightGenerated) return true;
  return earlier.maxHeightPrevoted > later.maxHeightPrevoted;
};

/** Like areDistinctHeadersContradicting, but a header never contradicts itself. */
export const areHeadersContradicting = (
  header1: IdentifiedContradictionHeader,
  header2: IdentifiedContradictionHeader,
): boolean => !header1.id.equals(header2.id) && areDistinctHeadersContradicting(header1, header2);

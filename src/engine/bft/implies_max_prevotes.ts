import type { BFTHeader, ReadonlyBFTVotes } from './types.js';

export type ImpliesMaxPrevotesHeader = Pick<BFTHeader, 'height' | 'maxHeightGenerated' | 'generatorAddress'>;

/**
 * LIP 0058: whether a header for the block after the newest one the votes hold implies the
 * largest possible set of prevotes, i.e. its generator's previous block (maxHeightGenerated)
 * is either older than every block held or is one of its own blocks.
 */
export const impliesMaximalPrevotes = (votes: ReadonlyBFTVotes, header: ImpliesMaxPrevotesHeader): boolean => {
  const [tip] = votes.blockBFTInfos;
  if (tip === undefined) return header.height > header.maxHeightGenerated;
  if (tip.height + 1 !== header.height) {
    throw new Error(`Input header with height ${header.height} is invalid. It must be ${tip.height + 1}.`);
  }
  const previousHeight = header.maxHeightGenerated;
  if (previousHeight >= header.height) return false;
  const offset = tip.height - previousHeight;
  const previous = votes.blockBFTInfos[offset];
  if (previous === undefined) return true;
  return previous.generatorAddress.equals(header.generatorAddress);
};

import type { BFTParametersCache } from './parameters.js';
import type { BFTBlockHeader, BFTHeader, BFTParameters, BFTValidator, BFTVotes, BlockBFTInfo } from './types.js';

const newest = (votes: BFTVotes): BlockBFTInfo => {
  const [info] = votes.blockBFTInfos;
  if (info === undefined) throw new Error('Invalid state. BFT votes hold no block');
  return info;
};

const oldest = (votes: BFTVotes): BlockBFTInfo => {
  const info = votes.blockBFTInfos[votes.blockBFTInfos.length - 1];
  if (info === undefined) throw new Error('Invalid state. BFT votes hold no block');
  return info;
};

export const newestBlockHeight = (votes: BFTVotes): number => newest(votes).height;
export const oldestBlockHeight = (votes: BFTVotes): number => oldest(votes).height;

/** Prepends the block's BFT properties, keeping at most `maxLength` blocks. */
export const insertBlockBFTInfo = (votes: BFTVotes, header: BFTHeader, maxLength: number): void => {
  const info: BlockBFTInfo = {
    height: header.height,
    generatorAddress: header.generatorAddress,
    maxHeightGenerated: header.maxHeightGenerated,
    maxHeightPrevoted: header.maxHeightPrevoted,
    prevoteWeight: 0n,
    precommitWeight: 0n,
  };
  votes.blockBFTInfos = [info, ...votes.blockBFTInfos].slice(0, maxLength);
};

/**
 * The greatest height the newest block's generator cannot be counted as prevoting for:
 * following its chain of own blocks back through maxHeightGenerated, the first link that is
 * not a block of the same generator or that does not point strictly backwards.
 */
export const getHeightNotPrevoted = (votes: BFTVotes): number => {
  const current = newest(votes);
  let heightPreviousBlock = current.maxHeightGenerated;
  while (current.height - heightPreviousBlock < votes.blockBFTInfos.length) {
    const previous = votes.blockBFTInfos[current.height - heightPreviousBlock];
    if (
      !previous.generatorAddress.equals(current.generatorAddress) ||
      previous.maxHeightGenerated >= heightPreviousBlock
    ) {
      return heightPreviousBlock;
    }
    heightPreviousBlock = previous.maxHeightGenerated;
  }
  return oldest(votes).height - 1;
};

/** Finds one generator in parameter sets; most heights share a set, so each set is searched once. */
const validatorFinder = (address: Buffer, height: number): ((params: BFTParameters) => BFTValidator) => {
  const found = new Map<BFTParameters, BFTValidator | undefined>();
  return (params) => {
    if (!found.has(params))
      found.set(
        params,
        params.validators.find((v) => v.address.equals(address)),
      );
    const validator = found.get(params);
    // Klayr names the newest block's height here, not the height whose parameters lack the validator
    if (validator === undefined)
      throw new Error(
        `Invalid state. Validator ${address.toString('hex')} must be in the BFT parameters at height ${height}`,
      );
    return validator;
  };
};

/** Adds the newest block's implied precommits and prevotes to the blocks it votes for. */
export const updatePrevotesPrecommits = (votes: BFTVotes, paramsCache: BFTParametersCache): void => {
  const current = votes.blockBFTInfos[0];
  if (current === undefined) return;
  // a block that does not point strictly backwards casts no votes
  if (current.maxHeightGenerated >= current.height) return;
  const validatorInfo = votes.activeValidatorsVoteInfo.find((v) => v.address.equals(current.generatorAddress));
  if (validatorInfo === undefined) return;

  const validatorIn = validatorFinder(current.generatorAddress, current.height);
  const heightNotPrevoted = getHeightNotPrevoted(votes);
  const minPrecommitHeight = Math.max(
    validatorInfo.minActiveHeight,
    heightNotPrevoted + 1,
    validatorInfo.largestHeightPrecommit + 1,
  );
  let hasPrecommitted = false;
  for (const info of votes.blockBFTInfos) {
    if (info.height < minPrecommitHeight) break;
    const params = paramsCache.getParameters(info.height);
    if (info.prevoteWeight < params.prevoteThreshold) continue;
    info.precommitWeight += validatorIn(params).bftWeight;
    if (!hasPrecommitted) {
      validatorInfo.largestHeightPrecommit = info.height;
      hasPrecommitted = true;
    }
  }

  const minPrevoteHeight = Math.max(current.maxHeightGenerated + 1, validatorInfo.minActiveHeight);
  for (const info of votes.blockBFTInfos) {
    if (info.height < minPrevoteHeight) break;
    const params = paramsCache.getParameters(info.height);
    info.prevoteWeight += validatorIn(params).bftWeight;
  }
};

export const updateMaxHeightPrevoted = (votes: BFTVotes, paramsCache: BFTParametersCache): void => {
  const prevoted = votes.blockBFTInfos.find(
    (info) => info.prevoteWeight >= paramsCache.getParameters(info.height).prevoteThreshold,
  );
  if (prevoted !== undefined) votes.maxHeightPrevoted = prevoted.height;
};

export const updateMaxHeightPrecommitted = (votes: BFTVotes, paramsCache: BFTParametersCache): void => {
  const precommitted = votes.blockBFTInfos.find(
    (info) => info.precommitWeight >= paramsCache.getParameters(info.height).precommitThreshold,
  );
  if (precommitted !== undefined) votes.maxHeightPrecommitted = precommitted.height;
};

/** A block carrying a certificate (non-empty aggregate commit) certifies the commit's height. */
export const updateMaxHeightCertified = (votes: BFTVotes, header: Pick<BFTBlockHeader, 'aggregateCommit'>): void => {
  const { aggregationBits, certificateSignature, height } = header.aggregateCommit;
  if (aggregationBits.length === 0 && certificateSignature.length === 0) return;
  votes.maxHeightCertified = height;
};

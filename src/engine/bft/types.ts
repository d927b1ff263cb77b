import type { AggregateCommit } from '../../lib/chain/block.js';

export interface BFTValidator {
  address: Buffer;
  bftWeight: bigint;
  generatorKey: Buffer;
  blsKey: Buffer;
}

/** The BFT parameters stored for the height from which they apply. */
export interface BFTParameters {
  prevoteThreshold: bigint;
  precommitThreshold: bigint;
  certificateThreshold: bigint;
  validators: BFTValidator[];
  validatorsHash: Buffer;
}

export interface BlockBFTInfo {
  height: number;
  generatorAddress: Buffer;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
  prevoteWeight: bigint;
  precommitWeight: bigint;
}

export interface ActiveValidatorVoteInfo {
  address: Buffer;
  minActiveHeight: number;
  largestHeightPrecommit: number;
}

/** The votes record; blockBFTInfos is newest first. */
export interface BFTVotes {
  maxHeightPrevoted: number;
  maxHeightPrecommitted: number;
  maxHeightCertified: number;
  blockBFTInfos: BlockBFTInfo[];
  activeValidatorsVoteInfo: ActiveValidatorVoteInfo[];
}

/** The votes record as readers that only read it get it (one value shared between them: never changed). */
export type ReadonlyBFTVotes = Readonly<Omit<BFTVotes, 'blockBFTInfos' | 'activeValidatorsVoteInfo'>> & {
  readonly blockBFTInfos: readonly Readonly<BlockBFTInfo>[];
  readonly activeValidatorsVoteInfo: readonly Readonly<ActiveValidatorVoteInfo>[];
};

export interface BFTHeights {
  maxHeightPrevoted: number;
  maxHeightPrecommitted: number;
  maxHeightCertified: number;
}

/** The header properties BFT reads; a full BlockHeader satisfies it. */
export interface BFTHeader {
  height: number;
  generatorAddress: Buffer;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

/** What a block contributes to the votes: its BFT properties and its aggregate commit. */
export interface BFTBlockHeader extends BFTHeader {
  aggregateCommit: AggregateCommit;
}

/** A header with its block ID, for telling two distinct headers apart. */
export interface IdentifiedBFTHeader extends BFTHeader {
  id: Buffer;
}

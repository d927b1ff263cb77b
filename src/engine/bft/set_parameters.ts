import { computeValidatorsHash } from '../../lib/chain/validators_hash.js';
import type { StateReadWriter } from '../state/types.js';
import { EMPTY_BLS_KEY } from './constants.js';
import { bftParametersSchema } from './schemas.js';
import { bftParametersStore, heightKey, readBFTVotes, writeBFTVotes } from './stores.js';
import type { ActiveValidatorVoteInfo, BFTParameters, BFTValidator } from './types.js';

const allDistinct = (buffers: readonly Buffer[]): boolean =>
  new Set(buffers.map((b) => b.toString('latin1'))).size === buffers.length;

/** Klayr's checks on a new validator set, in Klayr's order; returns the aggregate BFT weight. */
const validate = (
  batchSize: number,
  precommitThreshold: bigint,
  certificateThreshold: bigint,
  validators: readonly BFTValidator[],
): bigint => {
  if (validators.length > batchSize) {
    throw new Error(`Invalid validators size. The number of validators can be at most the batch size ${batchSize}.`);
  }
  if (!allDistinct(validators.map((v) => v.address))) throw new Error('Provided validator addresses are not unique.');
  // validators without a registered BLS key all carry the empty key
  if (!allDistinct(validators.map((v) => v.blsKey).filter((key) => !key.equals(EMPTY_BLS_KEY)))) {
    throw new Error('Provided validator BLS keys are not unique.');
  }
  let aggregateBFTWeight = 0n;
  for (const validator of validators) {
    if (validator.bftWeight < 0n) throw new Error('BFT Weight must be 0 or greater.');
    aggregateBFTWeight += validator.bftWeight;
  }
  const minimum = aggregateBFTWeight / 3n + 1n;
  if (precommitThreshold < minimum || precommitThreshold > aggregateBFTWeight)
    throw new Error('Invalid precommitThreshold input.');
  if (certificateThreshold < minimum || certificateThreshold > aggregateBFTWeight)
    throw new Error('Invalid certificateThreshold input.');
  return aggregateBFTWeight;
};

/**
 * Stores a new validator set and thresholds, effective from the block after the newest one
 * the votes hold, and aligns the active validators' vote records with it.
 */
export const setBFTParameters = (
  state: StateReadWriter,
  batchSize: number,
  precommitThreshold: bigint,
  certificateThreshold: bigint,
  validators: readonly BFTValidator[],
): void => {
  const aggregateBFTWeight = validate(batchSize, precommitThreshold, certificateThreshold, validators);
  const params: BFTParameters = {
    prevoteThreshold: (2n * aggregateBFTWeight) / 3n + 1n,
    precommitThreshold,
    certificateThreshold,
    validators: [...validators],
    validatorsHash: computeValidatorsHash(validators, certificateThreshold),
  };

  const votes = readBFTVotes(state);
  // before the first block (genesis), maxHeightPrevoted is the genesis height
  const nextHeight = (votes.blockBFTInfos[0]?.height ?? votes.maxHeightPrevoted) + 1;
  bftParametersStore(state).setWithSchema(heightKey(nextHeight), params, bftParametersSchema);

  const activeValidators: ActiveValidatorVoteInfo[] = validators.map(
    (validator) =>
      votes.activeValidatorsVoteInfo.find((v) => v.address.equals(validator.address)) ?? {
        address: validator.address,
        minActiveHeight: nextHeight,
        largestHeightPrecommit: nextHeight - 1,
      },
  );
  votes.activeValidatorsVoteInfo = activeValidators.sort((a, b) => Buffer.compare(a.address, b.address));
  writeBFTVotes(state, votes);
};

import type { RewardConfig } from './config.js';

const DECIMAL_PERCENT_FACTOR = 10000n;

/** The part of the default reward every active validator gets regardless of weight. */
export const minimalRewardActiveValidators = (config: RewardConfig, defaultReward: bigint): bigint =>
  (defaultReward * BigInt(config.factorMinimumRewardActiveValidators)) / DECIMAL_PERCENT_FACTOR;

/** The rest of the round's rewards, shared by BFT weight: per active validator, default minus minimal reward. */
export const stakeRewardActiveValidators = (
  validators: readonly { bftWeight: bigint }[],
  defaultReward: bigint,
  minimal: bigint,
): bigint => BigInt(validators.filter((v) => v.bftWeight > 0n).length) * (defaultReward - minimal);

/** A validator's block reward before reductions: the minimal part plus its BFT-weight share (standby validators get the default). */
export const validatorBlockReward = (
  validators: readonly { address: Buffer; bftWeight: bigint }[],
  address: Buffer,
  config: RewardConfig,
  defaultReward: bigint,
): bigint | undefined => {
  const validator = validators.find((v) => v.address.equals(address));
  if (validator === undefined) return undefined;
  const totalWeight = validators.reduce((s, v) => s + v.bftWeight, 0n);
  const minimal = minimalRewardActiveValidators(config, defaultReward);
  return validator.bftWeight > 0n
    ? minimal + (validator.bftWeight * stakeRewardActiveValidators(validators, defaultReward, minimal)) / totalWeight
    : defaultReward;
};

/** The block reward before reductions: 0 before `offset`, then one bracket per `distance` blocks, the last one for ever. */
export const defaultRewardAtHeight = (config: RewardConfig, height: number): bigint => {
  if (height < config.offset) return 0n;
  const bracket = Math.min(
    Math.trunc((height - config.offset) / Math.floor(config.distance)),
    config.brackets.length - 1,
  );
  return config.brackets[bracket];
};

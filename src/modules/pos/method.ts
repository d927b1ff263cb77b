import type { MethodContext, StoreAccess } from '../../engine/state_machine/module.js';
import {
  q96,
  q96Ceil,
  q96Div,
  q96Floor,
  q96FromBytes,
  q96Mul,
  q96MulDiv,
  q96Sub,
  q96ToBytes,
} from '../../lib/math/q96.js';
import type { TokenMethod } from '../token/method.js';
import type { PoSConfig } from './config.js';
import { logPosEvent } from './events.js';
import type { GenesisData, SharingCoefficient, ValidatorAccount } from './schemas.js';
import { eligibleValidatorsStoreSchema, genesisDataStoreSchema, validatorStoreSchema } from './schemas.js';
import { EMPTY_KEY, MODULE_NAME, posStore } from './stores.js';

export const getGenesisData = (ctx: StoreAccess): GenesisData => {
  const data = posStore(ctx, 'genesisData').getWithSchema<GenesisData>(EMPTY_KEY, genesisDataStoreSchema);
  if (data === undefined) throw new Error('PoS genesis data is not set.');
  return data;
};

export const getRoundNumberFromHeight = (ctx: StoreAccess, config: PoSConfig, height: number): number =>
  Math.ceil((height - getGenesisData(ctx).height) / config.roundLength);

export const isEndOfRound = (ctx: StoreAccess, config: PoSConfig, height: number): boolean =>
  (height - getGenesisData(ctx).height) % config.roundLength === 0;

export const getValidatorAccount = (ctx: StoreAccess, address: Buffer): ValidatorAccount => {
  const validator = posStore(ctx, 'validator').getWithSchema<ValidatorAccount>(address, validatorStoreSchema);
  if (validator === undefined) throw new Error(`Validator ${address.toString('hex')} does not exist.`);
  return validator;
};

export const setValidatorAccount = (ctx: StoreAccess, address: Buffer, validator: ValidatorAccount): void =>
  posStore(ctx, 'validator').setWithSchema(address, validator, validatorStoreSchema);

/** Weight a validator is elected with: its total stake, capped at factorSelfStakes times its self-stake. */
export const getValidatorWeight = (factorSelfStakes: number, selfStake: bigint, totalStake: bigint): bigint => {
  const cap = selfStake * BigInt(factorSelfStakes);
  return cap < totalStake ? cap : totalStake;
};

/** The eligible-validators key: weight (8 bytes, big-endian) then address, so iteration orders by weight. */
export const eligibleKey = (address: Buffer, weight: bigint): Buffer => {
  const key = Buffer.alloc(28);
  key.writeBigUInt64BE(weight);
  address.copy(key, 8);
  return key;
};

/** Moves a validator's eligible entry from its old weight to its current one (dropped when banned or below the standby minimum). */
export const updateEligibleValidator = (
  ctx: StoreAccess,
  config: PoSConfig,
  address: Buffer,
  oldWeight: bigint,
  validator: ValidatorAccount,
): void => {
  const store = posStore(ctx, 'eligibleValidators');
  store.del(eligibleKey(address, oldWeight));
  if (validator.isBanned) return;
  const weight = getValidatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
  if (weight < config.minWeightStandby) return;
  const lastReportMisbehaviorHeight = validator.reportMisbehaviorHeights.at(-1) ?? 0;
  store.setWithSchema(eligibleKey(address, weight), { lastReportMisbehaviorHeight }, eligibleValidatorsStoreSchema);
};

/**
 * Locks the stakers' share of a block reward on the generator's account and raises the
 * validator's sharing coefficient for the token (pos method updateSharedRewards, Q96 math).
 */
export const updateSharedRewards = (
  ctx: Pick<MethodContext, 'store' | 'events' | 'contextStore'>,
  token: TokenMethod,
  generatorAddress: Buffer,
  tokenID: Buffer,
  reward: bigint,
): void => {
  const validator = getValidatorAccount(ctx, generatorAddress);
  if (validator.totalStake === 0n) return;
  const rewardFraction = q96Sub(q96(1n), q96Div(q96(BigInt(validator.commission)), q96(10000n)));
  const totalStakes = q96(validator.totalStake);
  let entry = validator.sharingCoefficients.find((c) => c.tokenID.equals(tokenID));
  if (entry === undefined) {
    entry = { tokenID, coefficient: Buffer.alloc(0) };
    validator.sharingCoefficients.push(entry);
  }
  const increase = q96MulDiv(q96(reward), rewardFraction, totalStakes);
  const shared = q96Ceil(q96Mul(increase, q96Sub(totalStakes, q96(validator.selfStake))));
  token.lock(ctx, generatorAddress, MODULE_NAME, tokenID, shared > reward ? reward : shared);
  entry.coefficient = q96ToBytes(q96FromBytes(entry.coefficient) + increase);
  validator.sharingCoefficients.sort((a, b) => Buffer.compare(a.tokenID, b.tokenID));
  setValidatorAccount(ctx, generatorAddress, validator);
};

/** A staker's reward from a validator's sharing coefficient growth since its stake last collected. */
export const calculateStakeRewards = (stakeCoefficient: Buffer, amount: bigint, validatorCoefficient: Buffer): bigint =>
  q96Floor(q96Mul(q96Sub(q96FromBytes(validatorCoefficient), q96FromBytes(stakeCoefficient)), q96(amount)));

/** Pays a stake its shared rewards: unlocked from the validator's locked rewards and transferred to the staker (not for self-stakes). */
export const assignStakeRewards = (
  ctx: Pick<MethodContext, 'store' | 'events' | 'contextStore'>,
  token: TokenMethod,
  stakerAddress: Buffer,
  stake: { validatorAddress: Buffer; amount: bigint; sharingCoefficients: SharingCoefficient[] },
  validator: ValidatorAccount,
): void => {
  if (stake.validatorAddress.equals(stakerAddress)) return;
  for (const coefficient of validator.sharingCoefficients) {
    const own =
      stake.sharingCoefficients.find((c) => c.tokenID.equals(coefficient.tokenID))?.coefficient ?? Buffer.alloc(24);
    const reward = calculateStakeRewards(own, stake.amount, coefficient.coefficient);
    if (reward <= 0n) continue;
    token.unlock(ctx, stake.validatorAddress, MODULE_NAME, coefficient.tokenID, reward);
    token.transfer(ctx, stake.validatorAddress, stakerAddress, coefficient.tokenID, reward);
    logPosEvent(
      ctx,
      'rewardsAssigned',
      { stakerAddress, validatorAddress: stake.validatorAddress, tokenID: coefficient.tokenID, amount: reward },
      [stakerAddress],
    );
  }
};

/** Lifts a ban (a validator that registered its missing keys); permanent after too many misbehaviour reports. */
export const unbanValidator = (ctx: StoreAccess, config: PoSConfig, address: Buffer): void => {
  const validator = getValidatorAccount(ctx, address);
  if (!validator.isBanned) throw new Error('The specified validator is not banned.');
  if (validator.reportMisbehaviorHeights.length >= config.reportMisbehaviorLimitBanned) {
    throw new Error('Validator exceeded the maximum allowed number of misbehaviors and is permanently banned.');
  }
  validator.isBanned = false;
  setValidatorAccount(ctx, address, validator);
  updateEligibleValidator(ctx, config, address, 0n, validator);
};

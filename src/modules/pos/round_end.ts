import type { BlockContext } from '../../engine/state_machine/module.js';
import { sha256 } from '../../lib/crypto/hash.js';
import { getRandomBytes } from '../random/method.js';
import { getGeneratorsBetweenTimestamps, setValidatorsParams } from '../validators/method.js';
import type { PoSConfig } from './config.js';
import {
  getGenesisData,
  getRoundNumberFromHeight,
  getValidatorAccount,
  getValidatorWeight,
  isEndOfRound,
  setValidatorAccount,
  updateEligibleValidator,
} from './method.js';
import type { WeightedAddress } from './schemas.js';
import { eligibleValidatorsStoreSchema, previousTimestampStoreSchema, snapshotStoreSchema } from './schemas.js';
import { EMPTY_KEY, posStore } from './stores.js';

/** Rounds between a stake-weight snapshot and the round whose validators it elects. */
const VALIDATOR_LIST_ROUND_OFFSET = 2;
/** 100% in the BFT weight cap's units (the cap is in hundredths of a percent). */
const MAX_CAP = 10000;

const roundKey = (round: number): Buffer => {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(round);
  return key;
};

const ceilDiv = (x: bigint, y: bigint): bigint => {
  if (y === 0n) throw new Error('Cannot divide by zero.');
  return (x + y - 1n) / y;
};

/** Missed slots since the previous block count against their validators (possibly banning them); the generator's count resets. */
const updateProductivity = (
  ctx: BlockContext,
  config: PoSConfig,
  blockTime: number,
  previousTimestamp: number,
): void => {
  const { height, timestamp, generatorAddress } = ctx.header;
  const missed = getGeneratorsBetweenTimestamps(ctx, blockTime, previousTimestamp, timestamp);
  for (const [key, count] of missed) {
    const address = Buffer.from(key, 'latin1');
    const validator = getValidatorAccount(ctx, address);
    validator.consecutiveMissedBlocks += count;
    if (
      validator.consecutiveMissedBlocks > config.failSafeMissedBlocks &&
      height - validator.lastGeneratedHeight > config.failSafeInactiveWindow
    ) {
      validator.isBanned = true;
      updateEligibleValidator(
        ctx,
        config,
        address,
        getValidatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake),
        validator,
      );
    }
    setValidatorAccount(ctx, address, validator);
  }
  const generator = getValidatorAccount(ctx, generatorAddress);
  generator.consecutiveMissedBlocks = 0;
  generator.lastGeneratedHeight = height;
  setValidatorAccount(ctx, generatorAddress, generator);
};

/** Snapshot of the eligible validators' weights for the round two rounds ahead; older snapshots are dropped. */
const createStakeWeightSnapshot = (ctx: BlockContext, config: PoSConfig): void => {
  const snapshotHeight = ctx.header.height + 1;
  const snapshotRound = getRoundNumberFromHeight(ctx, config, snapshotHeight) + VALIDATOR_LIST_ROUND_OFFSET;
  const eligible = posStore(ctx, 'eligibleValidators').iterateWithSchema<{ lastReportMisbehaviorHeight: number }>(
    { gte: Buffer.alloc(28, 0), lte: Buffer.alloc(28, 255), reverse: true },
    eligibleValidatorsStoreSchema,
  );
  const validatorWeightSnapshot: WeightedAddress[] = eligible
    .filter(
      ({ value }) =>
        value.lastReportMisbehaviorHeight === 0 ||
        value.lastReportMisbehaviorHeight < snapshotHeight - config.punishmentWindowSelfStaking,
    )
    .map(({ key }) => ({ address: Buffer.from(key.subarray(8)), weight: key.readBigUInt64BE(0) }));
  const snapshots = posStore(ctx, 'snapshot');
  snapshots.setWithSchema(roundKey(snapshotRound), { validatorWeightSnapshot }, snapshotStoreSchema);
  for (const { key } of snapshots.iterate({
    gte: roundKey(0),
    lte: roundKey(Math.max(0, snapshotRound - VALIDATOR_LIST_ROUND_OFFSET - 1)),
  }))
    snapshots.del(key);
};

/** LIP 0057's cap: no validator holds more than maxBFTWeightCap of the total BFT weight. */
const capWeight = (validators: WeightedAddress[], capValue: number): WeightedAddress[] => {
  if (validators.length < Math.ceil(MAX_CAP / capValue)) return validators;
  const maxCappedElements = Math.ceil(MAX_CAP / capValue) - 1;
  let partialSum = 0n;
  for (let i = maxCappedElements + 1; i < validators.length; i++) partialSum += validators[i].weight;
  for (let i = maxCappedElements; i > 0; i--) {
    partialSum += validators[i].weight;
    const capped = (BigInt(capValue) * partialSum) / 100n / (100n - BigInt(capValue * i) / 100n);
    if (capped < validators[i - 1].weight) {
      for (let j = 0; j < i; j++) validators[j].weight = capped;
      return validators;
    }
  }
  return validators;
};

/** The active validators of a round: elected by weight, topped up from the initial validators during the bootstrap rounds. */
const activeValidators = (
  ctx: BlockContext,
  config: PoSConfig,
  snapshot: WeightedAddress[],
  round: number,
): WeightedAddress[] => {
  const genesis = getGenesisData(ctx);
  const scale = (v: WeightedAddress): WeightedAddress => ({
    ...v,
    weight: ceilDiv(v.weight, config.weightScaleFactor),
  });
  if (round < genesis.initRounds + config.numberActiveValidators) {
    const numInit = genesis.initRounds + config.numberActiveValidators - round;
    const numElected = config.numberActiveValidators - numInit;
    const elected = snapshot.slice(0, numElected).map(scale);
    if (elected.length === 0)
      return genesis.initValidators.slice(0, numInit).map((address) => ({ address, weight: 1n }));
    const average = elected.reduce((s, v) => s + v.weight, 0n) / BigInt(elected.length);
    let added = 0;
    for (const address of genesis.initValidators) {
      if (added === numInit) break;
      if (elected.some((v) => v.address.equals(address))) continue;
      elected.push({ address, weight: average });
      added += 1;
    }
    return capWeight(elected, config.maxBFTWeightCap);
  }
  return capWeight(snapshot.slice(0, config.numberActiveValidators).map(scale), config.maxBFTWeightCap);
};

/** Picks a standby validator with probability proportional to weight. */
const pickStandby = (candidates: readonly WeightedAddress[], seed: Buffer): number => {
  const total = candidates.reduce((s, v) => s + v.weight, 0n);
  let threshold = seed.readBigUInt64BE(0) % total;
  for (let i = 0; i < candidates.length; i++) {
    if (candidates[i].weight > threshold) return i;
    threshold -= candidates[i].weight;
  }
  return -1;
};

const selectStandbyValidators = (candidates: WeightedAddress[], seed1: Buffer, seed2?: Buffer): WeightedAddress[] => {
  const wanted = seed2 === undefined ? 1 : 2;
  if (candidates.length <= wanted) return candidates.map((v) => ({ address: v.address, weight: 0n }));
  const result: WeightedAddress[] = [];
  for (const seed of seed2 === undefined ? [seed1] : [seed1, seed2]) {
    const [picked] = candidates.splice(pickStandby(candidates, seed), 1);
    result.push({ address: picked.address, weight: 0n });
  }
  return result;
};

/** Orders validators by sha256(round seed || address), then by address. */
export const shuffleValidatorList = <T extends { address: Buffer }>(roundSeed: Buffer, validators: readonly T[]): T[] =>
  validators
    .map((v) => ({ v, hash: sha256(Buffer.concat([roundSeed, v.address])) }))
    .sort((a, b) => Buffer.compare(a.hash, b.hash) || Buffer.compare(a.v.address, b.v.address))
    .map(({ v }) => v);

/** Elects the next round's validators (active + standby), shuffles them and hands them with their thresholds to the validators module. */
const updateValidators = (ctx: BlockContext, config: PoSConfig): void => {
  const { height } = ctx.header;
  const nextRound = getRoundNumberFromHeight(ctx, config, height) + 1;
  const snapshot = posStore(ctx, 'snapshot').getWithSchema<{ validatorWeightSnapshot: WeightedAddress[] }>(
    roundKey(nextRound),
    snapshotStoreSchema,
  );
  if (snapshot === undefined) throw new Error(`No stake weight snapshot for round ${nextRound}.`);
  const genesis = getGenesisData(ctx);
  const validators = activeValidators(ctx, config, snapshot.validatorWeightSnapshot, nextRound);
  const seed1 = getRandomBytes(ctx, height + 1 - Math.floor((config.roundLength * 3) / 2), config.roundLength);
  if (nextRound >= genesis.initRounds + config.numberActiveValidators && config.numberStandbyValidators > 0) {
    const candidates = snapshot.validatorWeightSnapshot.filter(
      (v) => !validators.some((a) => a.address.equals(v.address)),
    );
    const seed2 =
      config.numberStandbyValidators === 2
        ? getRandomBytes(ctx, height + 1 - 2 * config.roundLength, config.roundLength)
        : undefined;
    if (config.numberStandbyValidators <= 2) validators.push(...selectStandbyValidators(candidates, seed1, seed2));
  }
  if (validators.length === 0) return;
  const shuffled = shuffleValidatorList(seed1, validators);
  const total = shuffled.reduce((s, v) => s + v.weight, 0n);
  const threshold = (2n * total) / 3n + 1n;
  setValidatorsParams(
    ctx,
    threshold,
    threshold,
    shuffled.map((v) => ({ address: v.address, bftWeight: v.weight })),
  );
};

/** PoS afterTransactionsExecute: productivity, and at a round's end the stake snapshot and (after the bootstrap rounds) the next validator set. */
export const posAfterTransactionsExecute = (ctx: BlockContext, config: PoSConfig, blockTime: number): void => {
  const { height, timestamp } = ctx.header;
  const lastOfRound = isEndOfRound(ctx, config, height);
  const previous = posStore(ctx, 'previousTimestamp');
  const previousTimestamp = previous.getWithSchema<{ timestamp: number }>(
    EMPTY_KEY,
    previousTimestampStoreSchema,
  )?.timestamp;
  if (previousTimestamp === undefined) throw new Error('PoS previous timestamp is not set.');
  updateProductivity(ctx, config, blockTime, previousTimestamp);
  if (lastOfRound) createStakeWeightSnapshot(ctx, config);
  const bootstrapOver = getRoundNumberFromHeight(ctx, config, height + 1) > getGenesisData(ctx).initRounds;
  if (lastOfRound && bootstrapOver) updateValidators(ctx, config);
  previous.setWithSchema(EMPTY_KEY, { timestamp }, previousTimestampStoreSchema);
};

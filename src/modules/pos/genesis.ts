import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { addressToKlayr32 } from '../../lib/crypto/address.js';
import { getLockedAmount } from '../token/method.js';
import { registerValidatorKeys, registerValidatorWithoutBLSKey, setValidatorsParams } from '../validators/method.js';
import { compareUnlocks } from './commands/stake.js';
import type { PoSConfig } from './config.js';
import type { GenesisPoSStore, PendingUnlock, SharingCoefficient, Stake } from './schemas.js';
import {
  genesisDataStoreSchema,
  genesisStoreSchema,
  nameStoreSchema,
  previousTimestampStoreSchema,
  stakerStoreSchema,
  validatorStoreSchema,
} from './schemas.js';
import { EMPTY_KEY, MODULE_NAME, posStore } from './stores.js';

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_NUMBER_SENT_STAKES = 10;
const genesisCodec: CompiledSchema<GenesisPoSStore> = compile<GenesisPoSStore>(genesisStoreSchema);
const hex = (b: Buffer): string => b.toString('hex');
const unique = (items: readonly Buffer[]): boolean => new Set(items.map(hex)).size === items.length;
const ordered = (items: readonly Buffer[]): boolean =>
  items.every((b, i) => i === 0 || Buffer.compare(items[i - 1], b) <= 0);

/** Klayr's username rule: lower-case letters, digits and !@$&_. only. */
export const isUsername = (name: string): boolean =>
  name === name.trim().toLowerCase() && /^[a-z0-9!@$&_.]+$/.test(name);
const coefficientsSorted = (c: readonly SharingCoefficient[]): boolean => ordered(c.map((x) => x.tokenID));

const decode = (ctx: GenesisContext): GenesisPoSStore | undefined => {
  const bytes = ctx.asset(MODULE_NAME);
  return bytes === undefined ? undefined : genesisCodec.decode(bytes);
};

/** The BLS keys and proofs of possession the genesis validators register (none when the block has no pos asset). */
export const genesisProofsOfPossession = (
  assets: readonly { module: string; data: Buffer }[],
): { pk: Buffer; proof: Buffer }[] => {
  const asset = assets.find((a) => a.module === MODULE_NAME);
  return asset === undefined
    ? []
    : genesisCodec.decode(asset.data).validators.map((v) => ({ pk: v.blsKey, proof: v.proofOfPossession }));
};

/** Validators, stakers and genesis data from the pos asset, with Klayr's checks. */
export const initPoSGenesis = (ctx: GenesisContext, config: PoSConfig): void => {
  const genesis = decode(ctx);
  if (genesis === undefined) return;
  genesisCodec.validate(genesis);
  const byAddress = new Map(genesis.validators.map((v) => [hex(v.address), v]));
  for (const v of genesis.validators) {
    if (!isUsername(v.name)) throw new Error(`Invalid validator name ${v.name}.`);
    if (v.lastCommissionIncreaseHeight > ctx.header.height)
      throw new Error(
        `Invalid lastCommissionIncreaseHeight ${v.lastCommissionIncreaseHeight} for ${addressToKlayr32(v.address)}.`,
      );
    if (!coefficientsSorted(v.sharingCoefficients)) throw new Error('SharingCoefficients must be sorted by tokenID.');
  }
  if (!unique(genesis.validators.map((v) => v.address))) throw new Error('Validator address is not unique.');
  if (new Set(genesis.validators.map((v) => v.name)).size !== genesis.validators.length)
    throw new Error('Validator name is not unique.');
  for (const staker of genesis.stakers) checkStaker(staker, byAddress, config);
  if (!unique(genesis.stakers.map((s) => s.address))) throw new Error('Staker address is not unique.');
  const { initValidators } = genesis.genesisData;
  if (!unique(initValidators)) throw new Error('Init validators address is not unique.');
  if (initValidators.some((a) => !byAddress.has(hex(a))))
    throw new Error('Init validators includes non existing validator address.');
  if (initValidators.length > config.numberActiveValidators)
    throw new Error(`Init validators is greater than number of active validators ${config.numberActiveValidators}.`);

  const received = new Map<string, { selfStake: bigint; stakeReceived: bigint }>();
  const stakers = posStore(ctx, 'staker');
  for (const staker of genesis.stakers) {
    for (const stake of staker.stakes) {
      const data = received.get(hex(stake.validatorAddress)) ?? { selfStake: 0n, stakeReceived: 0n };
      data.stakeReceived += stake.amount;
      if (data.stakeReceived > MAX_UINT64) throw new Error('Stakes received out of range.');
      if (stake.validatorAddress.equals(staker.address)) {
        data.selfStake += stake.amount;
        if (data.selfStake > MAX_UINT64) throw new Error('Self stake out of range.');
      }
      received.set(hex(stake.validatorAddress), data);
    }
    stakers.setWithSchema(
      staker.address,
      { stakes: staker.stakes, pendingUnlocks: staker.pendingUnlocks },
      stakerStoreSchema,
    );
  }
  const validators = posStore(ctx, 'validator');
  const names = posStore(ctx, 'name');
  for (const v of genesis.validators) {
    const stake = received.get(hex(v.address)) ?? { selfStake: 0n, stakeReceived: 0n };
    validators.setWithSchema(
      v.address,
      {
        name: v.name,
        totalStake: stake.stakeReceived,
        selfStake: stake.selfStake,
        lastGeneratedHeight: v.lastGeneratedHeight,
        isBanned: v.isBanned,
        reportMisbehaviorHeights: v.reportMisbehaviorHeights,
        consecutiveMissedBlocks: v.consecutiveMissedBlocks,
        commission: v.commission,
        lastCommissionIncreaseHeight: v.lastCommissionIncreaseHeight,
        sharingCoefficients: v.sharingCoefficients,
      },
      validatorStoreSchema,
    );
    names.setWithSchema(Buffer.from(v.name, 'utf8'), { validatorAddress: v.address }, nameStoreSchema);
  }
  posStore(ctx, 'previousTimestamp').setWithSchema(
    EMPTY_KEY,
    { timestamp: ctx.header.timestamp },
    previousTimestampStoreSchema,
  );
  posStore(ctx, 'genesisData').setWithSchema(
    EMPTY_KEY,
    { height: ctx.header.height, initRounds: genesis.genesisData.initRounds, initValidators },
    genesisDataStoreSchema,
  );
};

const checkStaker = (
  staker: GenesisPoSStore['stakers'][number],
  validators: Map<string, GenesisPoSStore['validators'][number]>,
  config: PoSConfig,
): void => {
  // Klayr's genesis checks its constant, not modules.pos.maxNumberSentStakes
  if (staker.stakes.length > MAX_NUMBER_SENT_STAKES)
    throw new Error(`Sent stake exceeds max stake ${MAX_NUMBER_SENT_STAKES}.`);
  const targets = staker.stakes.map((s) => s.validatorAddress);
  if (!unique(targets)) throw new Error('Sent stake validator address is not unique.');
  if (!ordered(targets)) throw new Error('Sent stake validator address is not lexicographically ordered.');
  for (const stake of staker.stakes) checkStake(stake, validators);
  if (staker.pendingUnlocks.length > config.maxNumberPendingUnlocks)
    throw new Error(`PendingUnlocks exceeds max unlocking ${config.maxNumberPendingUnlocks}.`);
  const sorted = [...staker.pendingUnlocks].sort(compareUnlocks);
  if (sorted.some((u, i) => compareUnlocks(u, staker.pendingUnlocks[i]) !== 0))
    throw new Error('PendingUnlocks are not lexicographically ordered.');
  if (staker.pendingUnlocks.some((u) => !validators.has(hex(u.validatorAddress))))
    throw new Error('Pending unlocks includes non existing validator address.');
};

const checkStake = (stake: Stake, validators: Map<string, GenesisPoSStore['validators'][number]>): void => {
  const validator = validators.get(hex(stake.validatorAddress));
  if (validator === undefined) throw new Error('Sent stake includes non existing validator address.');
  for (const c of stake.sharingCoefficients) {
    const target = validator.sharingCoefficients.find((t) => t.tokenID.equals(c.tokenID));
    if (target === undefined || Buffer.compare(c.coefficient, target.coefficient) > 0) {
      throw new Error(
        'Validator does not have corresponding sharing coefficient or the coefficient value is not consistent.',
      );
    }
  }
  if (!coefficientsSorted(stake.sharingCoefficients))
    throw new Error('stakeSharingCoefficients must be sorted by tokenID.');
};

/** Registers the genesis validators' keys, checks stakes are locked, and sets the initial validator set (BFT weight 1 each). */
export const finalizePoSGenesis = (ctx: GenesisContext, config: PoSConfig): void => {
  const genesis = decode(ctx);
  if (genesis === undefined) return;
  const mainchain = ctx.chainID.equals(Buffer.concat([ctx.chainID.subarray(0, 1), Buffer.alloc(3)]));
  for (const v of genesis.validators) {
    if (config.useInvalidBLSKey && mainchain) registerValidatorWithoutBLSKey(ctx, v.address, v.generatorKey);
    else registerValidatorKeys(ctx, v.address, v.blsKey, v.generatorKey, v.proofOfPossession);
  }
  const stakers = posStore(ctx, 'staker').iterateWithSchema<{ stakes: Stake[]; pendingUnlocks: PendingUnlock[] }>(
    { gte: Buffer.alloc(20), lte: Buffer.alloc(20, 255) },
    stakerStoreSchema,
  );
  for (const { key, value } of stakers) {
    const staked =
      value.stakes.reduce((s, x) => s + x.amount, 0n) + value.pendingUnlocks.reduce((s, x) => s + x.amount, 0n);
    if (getLockedAmount(ctx, key, config.posTokenID, MODULE_NAME) !== staked)
      throw new Error('Staked amount is not locked');
  }
  const initValidators = [...genesis.genesisData.initValidators].sort(Buffer.compare);
  const total = BigInt(initValidators.length);
  const precommitThreshold = (2n * total) / 3n + 1n;
  setValidatorsParams(
    ctx,
    precommitThreshold,
    precommitThreshold,
    initValidators.map((address) => ({ address, bftWeight: 1n })),
  );
};

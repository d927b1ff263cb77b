import { compile } from '../../lib/codec/index.js';
import { calculateStakeRewards } from '../../modules/pos/method.js';
import type {
  GenesisPoSStore,
  GenesisValidator,
  PendingUnlock,
  Stake,
  ValidatorAccount,
} from '../../modules/pos/schemas.js';
import {
  eligibleValidatorsStoreSchema,
  genesisStoreSchema,
  stakerStoreSchema,
  validatorStoreSchema,
} from '../../modules/pos/schemas.js';
import { MODULE_NAME, POS_STORES } from '../../modules/pos/stores.js';
import { INVALID_BLS_KEY } from '../../modules/validators/method.js';
import type { ValidatorKeys } from '../../modules/validators/schemas.js';
import { validatorKeysSchema, validatorsParamsSchema } from '../../modules/validators/schemas.js';
import { MODULE_NAME as VALIDATORS, VALIDATORS_STORES } from '../../modules/validators/stores.js';
import type { MigratedAsset, MigrationContext } from '../context.js';
import type { ProofsOfPossession } from '../proofs_of_possession.js';
import type { BalanceMove } from './token.js';

const validatorCodec = compile<ValidatorAccount>(validatorStoreSchema);
const stakerCodec = compile<{ stakes: Stake[]; pendingUnlocks: PendingUnlock[] }>(stakerStoreSchema);
const eligibleCodec = compile<{ lastReportMisbehaviorHeight: number }>(eligibleValidatorsStoreSchema);
const keysCodec = compile<ValidatorKeys>(validatorKeysSchema);
const paramsCodec = compile<{ validators: { address: Buffer; bftWeight: bigint }[] }>(validatorsParamsSchema);
const genesisCodec = compile<GenesisPoSStore>(genesisStoreSchema);

export interface PoSMigrationOptions {
  /** Rounds of the bootstrap period (genesisData.initRounds). */
  initRounds: number;
  /** How many validators form the initial set. */
  initValidators: number;
}

export interface PoSMigration extends MigratedAsset {
  validators: number;
  banned: number;
  /** Validators without a registered BLS key (or whose proof of possession the old chain does not hold). */
  withoutBLSKey: number;
  initValidators: Buffer[];
  /** Stakers' unclaimed rewards, held locked by their validators: paid out to the stakers. */
  rewardMoves: BalanceMove[];
  stakers: number;
  /** Whether the successor must register the validators without BLS keys (modules.pos.useInvalidBLSKey). */
  useInvalidBLSKey: boolean;
}

const hex = (b: Buffer): string => b.toString('hex');

/**
 * The validators' order by active position at the snapshot: the active set first (BFT weight,
 * highest first; the standby validators, weight 0, last), then the other eligible validators by
 * stake weight, highest first (the eligible store's key is weight || address).
 */
const activePositions = (ctx: MigrationContext): Buffer[] => {
  const params = ctx.snapshot.get(VALIDATORS, VALIDATORS_STORES.validatorsParams, Buffer.alloc(0), paramsCodec);
  const active = [...(params?.validators ?? [])]
    .sort((a, b) =>
      a.bftWeight === b.bftWeight ? Buffer.compare(a.address, b.address) : a.bftWeight > b.bftWeight ? -1 : 1,
    )
    .map((v) => v.address);
  const eligible = [...ctx.snapshot.substore(MODULE_NAME, POS_STORES.eligibleValidators, eligibleCodec)]
    .map(({ key }) => key)
    .reverse()
    .map((key) => key.subarray(8));
  const seen = new Set<string>();
  return [...active, ...eligible].filter((a) => !seen.has(hex(a)) && seen.add(hex(a)));
};

/** Each staker's unclaimed reward (the growth of its validator's sharing coefficient since the stake last collected), self-stakes excepted. */
const unclaimedRewards = (
  ctx: MigrationContext,
  validators: Map<string, ValidatorAccount>,
): { moves: BalanceMove[]; stakers: number } => {
  const moves: BalanceMove[] = [];
  let stakers = 0;
  for (const { key: staker, value } of ctx.snapshot.substore(MODULE_NAME, POS_STORES.staker, stakerCodec)) {
    stakers += 1;
    for (const stake of value.stakes) {
      if (stake.validatorAddress.equals(staker)) continue;
      const validator = validators.get(hex(stake.validatorAddress));
      if (validator === undefined)
        throw new Error(`Staker ${hex(staker)} stakes on ${hex(stake.validatorAddress)}, which is not a validator.`);
      for (const c of validator.sharingCoefficients) {
        const own = stake.sharingCoefficients.find((s) => s.tokenID.equals(c.tokenID))?.coefficient ?? Buffer.alloc(0);
        const amount = calculateStakeRewards(own, stake.amount, c.coefficient);
        if (amount > 0n) moves.push({ from: stake.validatorAddress, to: staker, tokenID: c.tokenID, amount });
      }
    }
  }
  return { moves, stakers };
};

/**
 * Every validator with its name, keys, proof of possession, commission and standing (banned
 * validators stay banned); no stakers (stakes return to balances); the initial validators are
 * the `initValidators` highest by active position that are not banned.
 *
 * Klayr's genesis registers each validator's BLS key with its proof of possession. A validator
 * without one (never registered, or its proof not on the old chain) cannot be registered that
 * way: then, as Lisk's own migration did, the successor registers every validator without a BLS
 * key (modules.pos.useInvalidBLSKey) and bans them all, each lifting its ban with legacy
 * registerKeys; the initial validators generate the bootstrap rounds meanwhile.
 */
export const migratePoS = (
  ctx: MigrationContext,
  proofs: ProofsOfPossession,
  options: PoSMigrationOptions,
): PoSMigration => {
  const { snapshot } = ctx;
  const accounts = new Map<string, ValidatorAccount>();
  const rows: { address: Buffer; account: ValidatorAccount; keys: ValidatorKeys; proof: Buffer | undefined }[] = [];
  for (const { key: address, value: account } of snapshot.substore(MODULE_NAME, POS_STORES.validator, validatorCodec)) {
    const keys = snapshot.get(VALIDATORS, VALIDATORS_STORES.validatorKeys, address, keysCodec);
    if (keys === undefined) throw new Error(`Validator ${hex(address)} has no keys in the validators module.`);
    const proof = keys.blsKey.equals(INVALID_BLS_KEY) ? undefined : proofs.of(keys.blsKey);
    accounts.set(hex(address), account);
    rows.push({ address, account, keys, proof });
  }
  const withoutBLSKey = rows.filter((r) => r.proof === undefined).length;
  const useInvalidBLSKey = withoutBLSKey > 0;
  const validators: GenesisValidator[] = rows.map(({ address, account, keys, proof }) => ({
    address,
    name: account.name,
    blsKey: proof === undefined ? INVALID_BLS_KEY : keys.blsKey,
    proofOfPossession: proof ?? Buffer.alloc(96),
    generatorKey: keys.generatorKey,
    lastGeneratedHeight: account.lastGeneratedHeight,
    isBanned: useInvalidBLSKey || account.isBanned,
    reportMisbehaviorHeights: account.reportMisbehaviorHeights,
    consecutiveMissedBlocks: account.consecutiveMissedBlocks,
    commission: account.commission,
    lastCommissionIncreaseHeight: account.lastCommissionIncreaseHeight,
    sharingCoefficients: account.sharingCoefficients
      .map((c) => ({ tokenID: ctx.tokenID(c.tokenID), coefficient: c.coefficient }))
      .sort((a, b) => Buffer.compare(a.tokenID, b.tokenID)),
  }));
  const initValidators = activePositions(ctx)
    .filter((a) => accounts.get(hex(a))?.isBanned === false)
    .slice(0, options.initValidators)
    .sort(Buffer.compare);
  if (initValidators.length === 0)
    throw new Error(
      'The snapshot has no active validator that is not banned: the successor would have no initial validators.',
    );
  const { moves, stakers } = unclaimedRewards(ctx, accounts);
  const data = genesisCodec.encode({
    validators,
    stakers: [],
    genesisData: { initRounds: options.initRounds, initValidators },
  });
  return {
    module: MODULE_NAME,
    data,
    validators: validators.length,
    banned: validators.filter((v) => v.isBanned).length,
    withoutBLSKey,
    initValidators,
    rewardMoves: moves,
    stakers,
    useInvalidBLSKey,
  };
};

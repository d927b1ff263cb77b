import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import type { BlockHeader } from '../../lib/chain/block.js';
import { compile } from '../../lib/codec/index.js';
import { addressToKlayr32, klayr32ToAddress } from '../../lib/crypto/address.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import {
  arrayOf,
  booleanType,
  endpointSchema,
  hex,
  klayr32,
  objectSchema,
  stringType,
  uint32Integer,
  uint64String,
} from '../../lib/endpoint/metadata.js';
import { hexBytes } from '../../lib/endpoint/params.js';
import { q96, q96Div, q96Floor, q96FromBytes, q96Mul, q96MulDiv, q96Sub } from '../../lib/math/q96.js';
import { required } from '../../lib/required.js';
import { getLockedAmount } from '../token/method.js';
import { DEFAULT_COMMISSION } from './commands/register_validator.js';
import type { PoSConfig } from './config.js';
import { posWindowBounds } from './config.js';
import { getGenesisData } from './method.js';
import type { PendingUnlock, Stake, ValidatorAccount } from './schemas.js';
import { stakerStoreSchema, validatorStoreSchema } from './schemas.js';
import { MODULE_NAME, posStore } from './stores.js';

const addressParams = {
  type: 'object',
  required: ['address'],
  properties: { address: { type: 'string', format: 'klayr32' } },
} as const;
const validatorCodec = compile<{ reportMisbehaviorHeights: number[] } & Record<string, unknown>>(validatorStoreSchema);
const stakerCodec = compile(stakerStoreSchema);

interface StakerData {
  stakes: Stake[];
  pendingUnlocks: PendingUnlock[];
}

/** The PoS endpoints that read validators, stakers, rewards and settings, as klayr-framework answers them. */
export const posEndpoints = (
  state: () => StoreAccess,
  config: PoSConfig,
  tip: () => Pick<BlockHeader, 'height' | 'aggregateCommit'>,
): Endpoints => {
  const punishmentPeriods = (heights: number[]) =>
    heights.map((start) => ({ start, end: start + config.punishmentWindowSelfStaking }));
  const validatorJSON = (address: Buffer, bytes: Buffer) => {
    const account = validatorCodec.decode(bytes);
    return {
      ...validatorCodec.toJSON(account),
      address: addressToKlayr32(address),
      punishmentPeriods: punishmentPeriods(account.reportMisbehaviorHeights),
    };
  };
  const stakerOf = (view: StoreAccess, address: Buffer): StakerData =>
    posStore(view, 'staker').getWithSchema<StakerData>(address, stakerStoreSchema) ?? {
      stakes: [],
      pendingUnlocks: [],
    };
  const lockedStaked = (view: StoreAccess, address: Buffer): bigint => {
    const staker = stakerOf(view, address);
    return staker.stakes.reduce((s, x) => s + x.amount, 0n) + staker.pendingUnlocks.reduce((s, x) => s + x.amount, 0n);
  };
  const validatorAccount = (view: StoreAccess, address: Buffer) => {
    const validators = posStore(view, 'validator');
    const account = validators.getWithSchema<ValidatorAccount>(address, validatorStoreSchema);
    if (account === undefined) throw validators.notFound(address);
    return account;
  };
  /** Blocks after unstaking until the tokens unlock: longer for self-stakes, extended by a misbehaviour report. */
  const expectedUnlockHeight = (
    view: StoreAccess,
    staker: Buffer,
    validator: Buffer,
    unstakeHeight: number,
  ): number => {
    const self = staker.equals(validator);
    const waitTime = (self ? config.lockingPeriodSelfStaking : config.lockingPeriodStaking) + unstakeHeight;
    const reports = validatorAccount(view, validator).reportMisbehaviorHeights;
    const lastReport = reports.at(-1);
    if (lastReport === undefined || lastReport >= unstakeHeight + waitTime) return waitTime;
    return Math.max(
      (self ? config.punishmentWindowSelfStaking : config.punishmentWindowStaking) + lastReport,
      waitTime,
    );
  };
  return {
    getLockedStakedAmount: {
      params: addressParams,
      handler: ({ params }) => ({
        amount: lockedStaked(state(), klayr32ToAddress(params.address as string)).toString(),
      }),
    },
    getPendingUnlocks: {
      params: addressParams,
      handler: ({ params }) => {
        const view = state();
        const address = klayr32ToAddress(params.address as string);
        const header = tip();
        const genesisHeight = getGenesisData(view).height;
        const lastHeightOfRound = (h: number) =>
          Math.ceil((h - genesisHeight) / config.roundLength) * config.roundLength + genesisHeight;
        return {
          pendingUnlocks: stakerOf(view, address).pendingUnlocks.map((unlock) => {
            const expectedUnlockableHeight = expectedUnlockHeight(
              view,
              address,
              unlock.validatorAddress,
              unlock.unstakeHeight,
            );
            const certified =
              lastHeightOfRound(unlock.unstakeHeight + 2 * config.roundLength) <= header.aggregateCommit.height;
            return {
              ...unlock,
              unlockable: header.height > expectedUnlockableHeight && certified,
              amount: unlock.amount.toString(),
              validatorAddress: addressToKlayr32(unlock.validatorAddress),
              expectedUnlockableHeight,
            };
          }),
        };
      },
    },
    getValidatorsByStake: {
      params: { type: 'object', properties: { limit: { type: 'integer', format: 'int32' } } },
      handler: ({ params }) => {
        const limit = (params.limit as number | undefined) ?? 100;
        if (limit < -1) throw new Error(`Input parameter limit ${limit} is not valid.`);
        const view = state();
        const eligible = posStore(view, 'eligibleValidators').iterate({
          gte: Buffer.alloc(28, 0),
          lte: Buffer.alloc(28, 255),
          reverse: true,
          ...(limit === -1 ? {} : { limit }),
        });
        return {
          validators: eligible.map(({ key }) => {
            const address = key.subarray(8);
            return validatorJSON(address, required(posStore(view, 'validator').get(address), 'An eligible validator'));
          }),
        };
      },
    },
    getLockedReward: {
      params: {
        type: 'object',
        required: ['address', 'tokenID'],
        properties: { address: { type: 'string', format: 'klayr32' }, tokenID: hexBytes(8) },
      },
      handler: ({ params }) => {
        const view = state();
        const tokenID = Buffer.from(params.tokenID as string, 'hex');
        const address = klayr32ToAddress(params.address as string);
        const locked = getLockedAmount(view, address, tokenID, MODULE_NAME);
        return {
          reward: (tokenID.equals(config.posTokenID) ? locked - lockedStaked(view, address) : locked).toString(),
        };
      },
    },
    getClaimableRewards: {
      params: addressParams,
      handler: ({ params }) => {
        const view = state();
        const address = klayr32ToAddress(params.address as string);
        const rewards = new Map<string, bigint>();
        for (const stake of stakerOf(view, address).stakes) {
          if (stake.validatorAddress.equals(address)) continue;
          for (const coefficient of validatorAccount(view, stake.validatorAddress).sharingCoefficients) {
            const own =
              stake.sharingCoefficients.find((c) => c.tokenID.equals(coefficient.tokenID))?.coefficient ??
              Buffer.alloc(0);
            const reward = q96Floor(
              q96Mul(q96Sub(q96FromBytes(coefficient.coefficient), q96FromBytes(own)), q96(stake.amount)),
            );
            const key = coefficient.tokenID.toString('hex');
            rewards.set(key, (rewards.get(key) ?? 0n) + reward);
          }
        }
        return { rewards: [...rewards].map(([tokenID, reward]) => ({ tokenID, reward: reward.toString() })) };
      },
    },
    getExpectedSharedRewards: {
      params: {
        type: 'object',
        required: ['validatorAddress', 'validatorReward', 'stake'],
        properties: {
          validatorAddress: { type: 'string', format: 'klayr32' },
          validatorReward: uint64String,
          stake: uint64String,
        },
      },
      handler: ({ params }) => {
        const account = validatorAccount(state(), klayr32ToAddress(params.validatorAddress as string));
        const stake = BigInt(params.stake as string);
        const rewardFraction = q96Sub(q96(1n), q96Div(q96(BigInt(account.commission)), q96(10000n)));
        const perUnit = q96MulDiv(
          q96(BigInt(params.validatorReward as string)),
          rewardFraction,
          q96(account.totalStake + stake),
        );
        return { reward: q96Floor(q96Mul(perUnit, q96(stake))).toString() };
      },
    },
    getValidator: {
      params: addressParams,
      handler: ({ params }) => {
        const address = klayr32ToAddress(params.address as string);
        const validators = posStore(state(), 'validator');
        const bytes = validators.get(address);
        if (bytes === undefined) throw validators.notFound(address);
        return validatorJSON(address, bytes);
      },
    },
    getAllValidators: {
      handler: () => ({
        validators: posStore(state(), 'validator')
          .iterate({ gte: Buffer.alloc(20), lte: Buffer.alloc(20, 255) })
          .map(({ key, value }) => validatorJSON(key, value)),
      }),
    },
    getStaker: {
      params: addressParams,
      handler: ({ params }) => {
        const address = klayr32ToAddress(params.address as string);
        const stakers = posStore(state(), 'staker');
        const bytes = stakers.get(address);
        if (bytes === undefined) throw stakers.notFound(address);
        return stakerCodec.toJSON(stakerCodec.decode(bytes));
      },
    },
    getPoSTokenID: { constant: true, handler: () => ({ tokenID: config.posTokenID.toString('hex') }) },
    getRegistrationFee: { constant: true, handler: () => ({ fee: config.validatorRegistrationFee.toString() }) },
    getConstants: {
      constant: true,
      handler: () => ({
        factorSelfStakes: config.factorSelfStakes,
        maxLengthName: config.maxLengthName,
        maxNumberSentStakes: config.maxNumberSentStakes,
        maxNumberPendingUnlocks: config.maxNumberPendingUnlocks,
        failSafeMissedBlocks: config.failSafeMissedBlocks,
        failSafeInactiveWindow: config.failSafeInactiveWindow,
        punishmentWindowStaking: config.punishmentWindowStaking,
        punishmentWindowSelfStaking: config.punishmentWindowSelfStaking,
        roundLength: config.roundLength,
        minWeightStandby: config.minWeightStandby.toString(),
        numberActiveValidators: config.numberActiveValidators,
        numberStandbyValidators: config.numberStandbyValidators,
        posTokenID: config.posTokenID.toString('hex'),
        validatorRegistrationFee: config.validatorRegistrationFee.toString(),
        maxBFTWeightCap: config.maxBFTWeightCap,
        commissionIncreasePeriod: config.commissionIncreasePeriod,
        maxCommissionIncreaseRate: config.maxCommissionIncreaseRate,
        useInvalidBLSKey: config.useInvalidBLSKey,
        baseStakeAmount: config.baseStakeAmount.toString(),
        lockingPeriodStaking: config.lockingPeriodStaking,
        lockingPeriodSelfStaking: config.lockingPeriodSelfStaking,
        reportMisbehaviorReward: config.reportMisbehaviorReward.toString(),
        reportMisbehaviorLimitBanned: config.reportMisbehaviorLimitBanned,
        weightScaleFactor: config.weightScaleFactor.toString(),
        defaultCommission: DEFAULT_COMMISSION,
      }),
    },
  };
};

const id = (name: string) => `modules/pos/endpoint/${name}`;
const addressRequest = (name: string) => endpointSchema(id(name), { address: klayr32 }, ['address']);
const uint32Between = (minimum?: number, maximum?: number) => ({
  ...uint32Integer,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});

const validatorProperties = {
  address: klayr32,
  name: stringType,
  totalStakeReceived: uint64String,
  selfStake: uint64String,
  lastGeneratedHeight: uint32Integer,
  isBanned: booleanType,
  pomHeights: arrayOf(uint32Integer),
  punishmentPeriods: arrayOf(objectSchema({ start: uint32Integer, end: uint32Integer }, ['start', 'end'])),
  consecutiveMissedBlocks: uint32Integer,
};
const validatorRequired = Object.keys(validatorProperties) as (keyof typeof validatorProperties)[];
const validatorResponse = objectSchema(validatorProperties, validatorRequired);

/**
 * getConstants' response schema. Klayr's PoS module writes the two windows' bounds for the chain's block time into
 * the schema objects it shares with getConstantsResponseSchema (PoSModule._getConfigSchema mutates them), so its
 * metadata publishes the bounds of the block time it was initialised with.
 */
const constantsSchema = (blockTime: number) => {
  const windows = posWindowBounds(blockTime);
  return {
    factorSelfStakes: uint32Between(1),
    maxLengthName: uint32Between(10, 30),
    maxNumberSentStakes: uint32Between(1, 20),
    maxNumberPendingUnlocks: uint32Between(1, 40),
    failSafeMissedBlocks: uint32Between(2),
    failSafeInactiveWindow: uint32Between(windows.minimum, windows.maximum),
    punishmentWindowSelfStaking: uint32Between(windows.minimum, windows.maximum),
    minWeightStandby: { ...uint64String, minimum: 1 },
    numberActiveValidators: uint32Between(1, 199),
    numberStandbyValidators: { ...uint32Integer, maximum: 2 },
    posTokenID: hex,
    validatorRegistrationFee: uint64String,
    maxBFTWeightCap: uint32Between(300, 10000),
    commissionIncreasePeriod: uint32Integer,
    maxCommissionIncreaseRate: uint32Between(100, 10000),
    useInvalidBLSKey: booleanType,
    baseStakeAmount: { ...uint64String, minimum: 1 },
    lockingPeriodStaking: uint32Integer,
    lockingPeriodSelfStaking: uint32Integer,
    reportMisbehaviorReward: uint64String,
    reportMisbehaviorLimitBanned: uint32Between(1),
    defaultCommission: uint32Integer,
  };
};
/** getConstants' declaration; Klayr leaves the two commission-increase constants out of the required list. */
const getConstantsDeclaration = (blockTime: number) => {
  const constants = constantsSchema(blockTime);
  const required = (Object.keys(constants) as (keyof typeof constants)[]).filter(
    (k) => k !== 'commissionIncreasePeriod' && k !== 'maxCommissionIncreaseRate',
  );
  return { name: 'getConstants', response: endpointSchema(id('getConstantsResponseSchema'), constants, required) };
};

/** The PoS endpoints as Klayr's metadata publishes them, for the chain's block time. */
export const posEndpointDeclarations = (blockTime: number): EndpointDeclarations => ({
  published: [
    {
      name: 'getAllValidators',
      response: endpointSchema(id('getAllValidatorsResponse'), { validators: arrayOf(validatorResponse) }, [
        'validators',
      ]),
    },
    {
      name: 'getValidator',
      request: addressRequest('getValidatorRequest'),
      response: { $id: id('getValidatorResponse'), ...validatorResponse },
    },
    {
      name: 'getStaker',
      // Klayr publishes getValidator's request schema for getStaker
      request: addressRequest('getValidatorRequest'),
      response: endpointSchema(
        id('getStakerResponse'),
        {
          stakes: {
            ...arrayOf(
              objectSchema({ validatorAddress: klayr32, amount: uint64String }, ['validatorAddress', 'amount']),
            ),
            fieldNumber: 1,
          },
          pendingUnlocks: {
            ...arrayOf(
              objectSchema({ validatorAddress: klayr32, amount: uint64String, unstakeHeight: uint32Integer }, [
                'validatorAddress',
                'amount',
                'unstakeHeight',
              ]),
            ),
            fieldNumber: 2,
          },
        },
        ['stakes', 'pendingUnlocks'],
      ),
    },
    getConstantsDeclaration(blockTime),
    { name: 'getPoSTokenID', response: endpointSchema(id('getPoSTokenIDResponse'), { tokenID: hex }, ['tokenID']) },
    {
      name: 'getClaimableRewards',
      request: addressRequest('getClaimableRewardsRequest'),
      // Klayr's rewards property has items but no type
      response: endpointSchema(id('getClaimableRewardsResponse'), {
        rewards: { items: objectSchema({ tokenID: hex, reward: uint64String }, ['tokenID', 'reward']) },
      }),
    },
    {
      name: 'getLockedReward',
      request: endpointSchema(id('getLockedRewardRequest'), { address: klayr32, tokenID: hex }, ['address', 'tokenID']),
      response: endpointSchema(id('getLockedRewardResponse'), { reward: uint64String }, ['reward']),
    },
    {
      name: 'getLockedStakedAmount',
      request: addressRequest('getLockedStakedAmountRequest'),
      response: endpointSchema(id('getLockedStakedAmountResponse'), { amount: uint64String }, ['amount']),
    },
    {
      name: 'getValidatorsByStake',
      request: endpointSchema(id('getValidatorsByStakeRequest'), { limit: { type: 'integer', format: 'int32' } }),
      response: endpointSchema(id('getValidatorsByStakeResponse'), { validators: arrayOf(validatorResponse) }, [
        'validators',
      ]),
    },
    {
      name: 'getPendingUnlocks',
      request: addressRequest('getPendingUnlocksRequest'),
      response: endpointSchema(
        id('getPendingUnlocksResponse'),
        {
          pendingUnlocks: arrayOf(
            objectSchema(
              {
                validatorAddress: klayr32,
                amount: uint64String,
                unstakeHeight: uint32Integer,
                expectedUnlockableHeight: uint32Integer,
                unlockable: booleanType,
              },
              ['validatorAddress', 'amount', 'unstakeHeight', 'expectedUnlockableHeight', 'unlockable'],
            ),
          ),
        },
        ['pendingUnlocks'],
      ),
    },
    {
      name: 'getRegistrationFee',
      response: endpointSchema(id('getRegistrationFeeResponse'), { registrationFee: stringType }, ['registrationFee']),
    },
    {
      name: 'getExpectedSharedRewards',
      request: endpointSchema(
        id('getExpectedSharedRewardsRequest'),
        { validatorAddress: klayr32, validatorReward: uint64String, stake: uint64String },
        ['validatorAddress', 'validatorReward', 'stake'],
      ),
      response: endpointSchema(id('getExpectedSharedRewardsResponse'), { reward: uint64String }, ['reward']),
    },
  ],
});

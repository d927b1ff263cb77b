import { computeStorePrefix } from '../../lib/state/keys.js';
import { arrayOf, booleanType, endpointSchema, hex, klayr32, objectSchema, storeMetadata, stringType, uint32Integer, uint64String } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { eligibleValidatorsStoreSchema, genesisDataStoreSchema, nameStoreSchema, previousTimestampStoreSchema, snapshotStoreSchema, stakerStoreSchema, validatorStoreSchema } from './schemas.js';
import { MODULE_NAME, POS_STORES } from './stores.js';

const storePrefix = computeStorePrefix(MODULE_NAME);
const id = (name: string) => `modules/pos/endpoint/${name}`;
const addressRequest = (name: string) => endpointSchema(id(name), { address: klayr32 }, ['address']);
const uint32 = (minimum?: number, maximum?: number) => ({ ...uint32Integer, ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) });

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
const validatorJSON = objectSchema(validatorProperties, validatorRequired);

const constants = {
  factorSelfStakes: uint32(1),
  maxLengthName: uint32(10, 30),
  maxNumberSentStakes: uint32(1, 20),
  maxNumberPendingUnlocks: uint32(1, 40),
  failSafeMissedBlocks: uint32(2),
  failSafeInactiveWindow: uint32(43200, 3153600),
  punishmentWindowSelfStaking: uint32(43200, 3153600),
  minWeightStandby: { ...uint64String, minimum: 1 },
  numberActiveValidators: uint32(1, 199),
  numberStandbyValidators: { ...uint32Integer, maximum: 2 },
  posTokenID: hex,
  validatorRegistrationFee: uint64String,
  maxBFTWeightCap: uint32(300, 10000),
  commissionIncreasePeriod: uint32Integer,
  maxCommissionIncreaseRate: uint32(100, 10000),
  useInvalidBLSKey: booleanType,
  baseStakeAmount: { ...uint64String, minimum: 1 },
  lockingPeriodStaking: uint32Integer,
  lockingPeriodSelfStaking: uint32Integer,
  reportMisbehaviorReward: uint64String,
  reportMisbehaviorLimitBanned: uint32(1),
  defaultCommission: uint32Integer,
};
// Klayr leaves the two commission-increase constants out of the required list
const requiredConstants = (Object.keys(constants) as (keyof typeof constants)[]).filter((k) => k !== 'commissionIncreasePeriod' && k !== 'maxCommissionIncreaseRate');

export const posMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [
    storeMetadata(storePrefix, POS_STORES.staker, stakerStoreSchema),
    storeMetadata(storePrefix, POS_STORES.validator, validatorStoreSchema),
    storeMetadata(storePrefix, POS_STORES.name, nameStoreSchema),
    storeMetadata(storePrefix, POS_STORES.snapshot, snapshotStoreSchema),
    storeMetadata(storePrefix, POS_STORES.genesisData, genesisDataStoreSchema),
    storeMetadata(storePrefix, POS_STORES.previousTimestamp, previousTimestampStoreSchema),
    storeMetadata(storePrefix, POS_STORES.eligibleValidators, eligibleValidatorsStoreSchema),
  ],
  endpoints: [
    { name: 'getAllValidators', response: endpointSchema(id('getAllValidatorsResponse'), { validators: arrayOf(validatorJSON) }, ['validators']) },
    { name: 'getValidator', request: addressRequest('getValidatorRequest'), response: { $id: id('getValidatorResponse'), ...validatorJSON } },
    {
      name: 'getStaker',
      // Klayr publishes getValidator's request schema for getStaker
      request: addressRequest('getValidatorRequest'),
      response: endpointSchema(
        id('getStakerResponse'),
        {
          stakes: { ...arrayOf(objectSchema({ validatorAddress: klayr32, amount: uint64String }, ['validatorAddress', 'amount'])), fieldNumber: 1 },
          pendingUnlocks: { ...arrayOf(objectSchema({ validatorAddress: klayr32, amount: uint64String, unstakeHeight: uint32Integer }, ['validatorAddress', 'amount', 'unstakeHeight'])), fieldNumber: 2 },
        },
        ['stakes', 'pendingUnlocks'],
      ),
    },
    { name: 'getConstants', response: endpointSchema(id('getConstantsResponseSchema'), constants, requiredConstants) },
    { name: 'getPoSTokenID', response: endpointSchema(id('getPoSTokenIDResponse'), { tokenID: hex }, ['tokenID']) },
    {
      name: 'getClaimableRewards',
      request: addressRequest('getClaimableRewardsRequest'),
      // Klayr's rewards property has items but no type
      response: endpointSchema(id('getClaimableRewardsResponse'), { rewards: { items: objectSchema({ tokenID: hex, reward: uint64String }, ['tokenID', 'reward']) } }),
    },
    {
      name: 'getLockedReward',
      request: endpointSchema(id('getLockedRewardRequest'), { address: klayr32, tokenID: hex }, ['address', 'tokenID']),
      response: endpointSchema(id('getLockedRewardResponse'), { reward: uint64String }, ['reward']),
    },
    { name: 'getLockedStakedAmount', request: addressRequest('getLockedStakedAmountRequest'), response: endpointSchema(id('getLockedStakedAmountResponse'), { amount: uint64String }, ['amount']) },
    {
      name: 'getValidatorsByStake',
      request: endpointSchema(id('getValidatorsByStakeRequest'), { limit: { type: 'integer', format: 'int32' } }),
      response: endpointSchema(id('getValidatorsByStakeResponse'), { validators: arrayOf(validatorJSON) }, ['validators']),
    },
    {
      name: 'getPendingUnlocks',
      request: addressRequest('getPendingUnlocksRequest'),
      response: endpointSchema(
        id('getPendingUnlocksResponse'),
        {
          pendingUnlocks: arrayOf(
            objectSchema(
              { validatorAddress: klayr32, amount: uint64String, unstakeHeight: uint32Integer, expectedUnlockableHeight: uint32Integer, unlockable: booleanType },
              ['validatorAddress', 'amount', 'unstakeHeight', 'expectedUnlockableHeight', 'unlockable'],
            ),
          ),
        },
        ['pendingUnlocks'],
      ),
    },
    { name: 'getRegistrationFee', response: endpointSchema(id('getRegistrationFeeResponse'), { registrationFee: stringType }, ['registrationFee']) },
    {
      name: 'getExpectedSharedRewards',
      request: endpointSchema(id('getExpectedSharedRewardsRequest'), { validatorAddress: klayr32, validatorReward: uint64String, stake: uint64String }, ['validatorAddress', 'validatorReward', 'stake']),
      response: endpointSchema(id('getExpectedSharedRewardsResponse'), { reward: uint64String }, ['reward']),
    },
  ],
};

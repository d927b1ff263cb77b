import { computeStorePrefix } from '../../lib/state/keys.js';
import { endpointSchema, hex, hexOfLength, klayr32, storeMetadata, stringType, uint32Integer, uint64String } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { endOfRoundTimestampSchema, MODULE_NAME } from './stores.js';

// the reward endpoints keep the /reward/ $ids of klayr-framework's reward module, which dynamicReward extends
const heightRequest = endpointSchema('/reward/endpoint/height', { height: uint32Integer }, ['height']);

export const dynamicRewardMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [storeMetadata(computeStorePrefix(MODULE_NAME), 0, endOfRoundTimestampSchema)],
  endpoints: [
    { name: 'getDefaultRewardAtHeight', request: heightRequest, response: endpointSchema('/reward/endpoint/getDefaultRewardAtHeightResponse', { reward: uint64String }, ['reward']) },
    {
      name: 'getAnnualInflation',
      request: heightRequest,
      response: endpointSchema('/reward/endpoint/getAnnualInflationResponse', { tokenID: hex, rate: { ...uint64String, minLength: 16, maxLength: 16 } }, ['tokenID', 'rate']),
    },
    { name: 'getRewardTokenID', response: endpointSchema('/reward/endpoint/getRewardTokenID', { tokenID: hexOfLength(16) }, ['tokenID']) },
    {
      name: 'getExpectedValidatorRewards',
      request: endpointSchema('/dynamicReward/endpoint/getExpectedValidatorRewardsRequestSchema', { validatorAddress: klayr32 }, ['validatorAddress']),
      response: endpointSchema(
        '/dynamicReward/endpoint/getExpectedValidatorRewardsResponseSchema',
        { blockReward: stringType, dailyReward: stringType, monthlyReward: stringType, yearlyReward: stringType },
        ['blockReward', 'dailyReward', 'monthlyReward', 'yearlyReward'],
      ),
    },
  ],
};

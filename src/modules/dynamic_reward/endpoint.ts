import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { klayr32ToAddress } from '../../lib/crypto/address.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import {
  endpointSchema,
  hex,
  hexOfLength,
  klayr32,
  stringType,
  uint32Integer,
  uint64String,
} from '../../lib/endpoint/metadata.js';
import { uint32 } from '../../lib/endpoint/params.js';
import { validatorsParamsSchema } from '../validators/schemas.js';
import { validatorsStore } from '../validators/stores.js';
import type { RewardConfig } from './config.js';
import { defaultRewardAtHeight, validatorBlockReward } from './method.js';

const SECONDS_PER_YEAR = 365 * 24 * 60 * 60;

interface ValidatorsParams {
  validators: { address: Buffer; bftWeight: bigint }[];
}

const heightParams = { type: 'object', required: ['height'], properties: { height: uint32 } } as const;
/**
 * The spec's request sends a height; the reward token is one for every height, so Klayr reads no
 * params and the height is accepted (when it is one) without changing the answer.
 */
const optionalHeightParams = { type: 'object', properties: { height: uint32 } } as const;

/** The dynamicReward namespace (with the reward methods it inherits), as klayr-framework answers. */
export const dynamicRewardEndpoints = (
  state: () => StoreAccess,
  config: RewardConfig,
  chain: { blockTime: number; roundLength: number; height: () => number },
): Endpoints => ({
  getDefaultRewardAtHeight: {
    params: heightParams,
    handler: ({ params }) => ({ reward: defaultRewardAtHeight(config, params.height as number).toString() }),
  },
  getRewardTokenID: {
    params: optionalHeightParams,
    constant: true,
    handler: () => ({ tokenID: config.tokenID.toString('hex') }),
  },
  getAnnualInflation: {
    params: heightParams,
    handler: ({ params }) => ({
      tokenID: config.tokenID.toString('hex'),
      rate: (
        BigInt(Math.floor(SECONDS_PER_YEAR / chain.blockTime)) * defaultRewardAtHeight(config, params.height as number)
      ).toString(),
    }),
  },
  getExpectedValidatorRewards: {
    params: {
      type: 'object',
      required: ['validatorAddress'],
      properties: { validatorAddress: { type: 'string', format: 'klayr32' } },
    },
    handler: ({ params }) => {
      const address = klayr32ToAddress(params.validatorAddress as string);
      const validators =
        validatorsStore(state(), 'validatorsParams').getWithSchema<ValidatorsParams>(
          Buffer.alloc(0),
          validatorsParamsSchema,
        )?.validators ?? [];
      const blockReward = validatorBlockReward(
        validators,
        address,
        config,
        defaultRewardAtHeight(config, chain.height()),
      );
      if (blockReward === undefined)
        return { blockReward: '0', dailyReward: '0', monthlyReward: '0', yearlyReward: '0' };
      const perSecond = blockReward / BigInt(chain.roundLength * chain.blockTime);
      return {
        blockReward: blockReward.toString(),
        dailyReward: (86400n * perSecond).toString(),
        monthlyReward: (2592000n * perSecond).toString(),
        yearlyReward: (31536000n * perSecond).toString(),
      };
    },
  },
});

// the reward endpoints keep the /reward/ $ids of klayr-framework's reward module, which dynamicReward extends
const heightRequest = endpointSchema('/reward/endpoint/height', { height: uint32Integer }, ['height']);

/** The dynamicReward endpoints as Klayr's metadata publishes them. */
export const DYNAMIC_REWARD_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'getDefaultRewardAtHeight',
      request: heightRequest,
      response: endpointSchema('/reward/endpoint/getDefaultRewardAtHeightResponse', { reward: uint64String }, [
        'reward',
      ]),
    },
    {
      name: 'getAnnualInflation',
      request: heightRequest,
      response: endpointSchema(
        '/reward/endpoint/getAnnualInflationResponse',
        { tokenID: hex, rate: { ...uint64String, minLength: 16, maxLength: 16 } },
        ['tokenID', 'rate'],
      ),
    },
    {
      name: 'getRewardTokenID',
      response: endpointSchema('/reward/endpoint/getRewardTokenID', { tokenID: hexOfLength(16) }, ['tokenID']),
    },
    {
      name: 'getExpectedValidatorRewards',
      request: endpointSchema(
        '/dynamicReward/endpoint/getExpectedValidatorRewardsRequestSchema',
        { validatorAddress: klayr32 },
        ['validatorAddress'],
      ),
      response: endpointSchema(
        '/dynamicReward/endpoint/getExpectedValidatorRewardsResponseSchema',
        { blockReward: stringType, dailyReward: stringType, monthlyReward: stringType, yearlyReward: stringType },
        ['blockReward', 'dailyReward', 'monthlyReward', 'yearlyReward'],
      ),
    },
  ],
};

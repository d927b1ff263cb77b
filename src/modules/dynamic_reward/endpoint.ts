import { klayr32ToAddress } from '../../lib/crypto/address.js';
import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { uint32 } from '../../rpc/params.js';
import { validatorsParamsSchema } from '../validators/schemas.js';
import { validatorsStore } from '../validators/stores.js';
import { defaultRewardAtHeight, validatorBlockReward } from './config.js';
import type { RewardConfig } from './config.js';

const SECONDS_PER_YEAR = 365 * 24 * 60 * 60;

interface ValidatorsParams {
  validators: { address: Buffer; bftWeight: bigint }[];
}

const heightParams = { type: 'object', required: ['height'], properties: { height: uint32 } } as const;

/** The dynamicReward namespace (with the reward methods it inherits), as klayr-framework answers. */
export const dynamicRewardEndpoints = (
  state: () => StoreAccess,
  config: RewardConfig,
  chain: { blockTime: number; roundLength: number; height: () => number },
): Record<string, EndpointDefinition> => ({
  getDefaultRewardAtHeight: {
    params: heightParams,
    handler: ({ params }) => ({ reward: defaultRewardAtHeight(config, params.height as number).toString() }),
  },
  getRewardTokenID: { constant: true, handler: () => ({ tokenID: config.tokenID.toString('hex') }) },
  getAnnualInflation: {
    params: heightParams,
    handler: ({ params }) => ({
      tokenID: config.tokenID.toString('hex'),
      rate: (BigInt(Math.floor(SECONDS_PER_YEAR / chain.blockTime)) * defaultRewardAtHeight(config, params.height as number)).toString(),
    }),
  },
  getExpectedValidatorRewards: {
    params: { type: 'object', required: ['validatorAddress'], properties: { validatorAddress: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) => {
      const address = klayr32ToAddress(params.validatorAddress as string);
      const validators = validatorsStore(state(), 'validatorsParams').getWithSchema<ValidatorsParams>(Buffer.alloc(0), validatorsParamsSchema)?.validators ?? [];
      const blockReward = validatorBlockReward(validators, address, config, defaultRewardAtHeight(config, chain.height()));
      if (blockReward === undefined) return { blockReward: '0', dailyReward: '0', monthlyReward: '0', yearlyReward: '0' };
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

import type { StateModule } from '../engine/state_machine/module.js';
import { AuthModule } from '../modules/auth/module.js';
import { rewardConfig } from '../modules/dynamic_reward/config.js';
import { DynamicRewardModule } from '../modules/dynamic_reward/index.js';
import { feeConfig } from '../modules/fee/endpoint.js';
import { FeeModule } from '../modules/fee/module.js';
import { MainchainInteroperabilityModule } from '../modules/interoperability/index.js';
import { LegacyModule } from '../modules/legacy/index.js';
import { posConfig } from '../modules/pos/config.js';
import { PoSModule } from '../modules/pos/index.js';
import { RandomModule } from '../modules/random/index.js';
import { TokenModule } from '../modules/token/index.js';
import { TokenMethod } from '../modules/token/method.js';
import { ValidatorsModule } from '../modules/validators/module.js';
import type { ApplicationConfig } from './config/types.js';

/** Module settings derived once from the application config. */
export const moduleConfigs = (config: ApplicationConfig) => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const token = config.modules.token ?? {};
  return {
    chainID,
    pos: posConfig(chainID, config.modules.pos ?? {}),
    fee: feeConfig(chainID, config.modules.fee ?? {}),
    reward: rewardConfig(chainID, config.modules.dynamicReward ?? {}),
    token: {
      ownChainID: chainID,
      userAccountInitializationFee: BigInt((token.userAccountInitializationFee as string | undefined) ?? '5000000'),
      escrowAccountInitializationFee: BigInt((token.escrowAccountInitializationFee as string | undefined) ?? '5000000'),
    },
  };
};

/**
 * Klayr Core's mainchain modules in its registration order (auth, validators, token, fee,
 * interoperability, pos, random, dynamicReward, legacy), which is the order their hooks run in.
 * The validators module has no hooks (other modules call its methods) but is registered.
 */
export const applicationModules = (config: ApplicationConfig): StateModule[] => {
  const configs = moduleConfigs(config);
  const token = new TokenMethod(configs.token);
  const { blockTime } = config.genesis;
  return [
    new AuthModule(),
    new ValidatorsModule(),
    new TokenModule(token),
    new FeeModule(configs.fee, token),
    new MainchainInteroperabilityModule(),
    new PoSModule(configs.pos, blockTime, token),
    new RandomModule(),
    new DynamicRewardModule({ config: configs.reward, pos: configs.pos, token, blockTime }),
    new LegacyModule({ token, pos: configs.pos, chainID: configs.chainID }),
  ];
};

import type { GenesisModule } from '../engine/state_machine/module.js';
import { DynamicRewardModule } from '../modules/dynamic_reward/index.js';
import { MainchainInteroperabilityModule } from '../modules/interoperability/index.js';
import { LegacyModule } from '../modules/legacy/index.js';
import { posConfig } from '../modules/pos/config.js';
import { PoSModule } from '../modules/pos/index.js';
import { RandomModule } from '../modules/random/index.js';
import { TokenModule } from '../modules/token/index.js';
import type { ApplicationConfig } from './config/types.js';

/**
 * Klayr Core's mainchain modules in its registration order (auth, validators, token, fee,
 * interoperability, pos, random, dynamicReward, legacy), as far as genesis processing needs
 * them: auth, validators and fee write nothing at genesis.
 */
export const genesisModules = (config: ApplicationConfig): GenesisModule[] => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  return [
    new TokenModule(),
    new MainchainInteroperabilityModule(),
    new PoSModule(posConfig(chainID, config.modules.pos ?? {})),
    new RandomModule(),
    new DynamicRewardModule(),
    new LegacyModule(),
  ];
};

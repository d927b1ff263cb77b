import type { Module } from '../engine/state_machine/module.js';
import { AuthModule } from '../modules/auth/index.js';
import { rewardConfig, rewardConfigSchema } from '../modules/dynamic_reward/config.js';
import { DynamicRewardModule } from '../modules/dynamic_reward/index.js';
import { feeConfig, feeConfigSchema } from '../modules/fee/config.js';
import { FeeModule } from '../modules/fee/index.js';
import { MainchainInteroperabilityModule } from '../modules/interoperability/index.js';
import { LegacyModule } from '../modules/legacy/index.js';
import { posConfig, posConfigSchema } from '../modules/pos/config.js';
import { PoSModule } from '../modules/pos/index.js';
import { RandomModule } from '../modules/random/index.js';
import { tokenConfig, tokenConfigSchema } from '../modules/token/config.js';
import { TokenModule } from '../modules/token/index.js';
import { TokenMethod } from '../modules/token/method.js';
import { ValidatorsModule } from '../modules/validators/index.js';
import type { SchemaProperty } from '../lib/codec/index.js';
import type { ApplicationConfig } from './config/types.js';

/**
 * Klayr Core's mainchain modules in its registration order (auth, validators, token, fee,
 * interoperability, pos, random, dynamicReward, legacy), which is the order their hooks run in,
 * each built with its modules.<name> config. The validators module has no hooks (other modules
 * call its methods) but is registered.
 */
export const mainchainModules = (config: ApplicationConfig): Module[] => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const { blockTime } = config.genesis;
  const settings = config.modules;
  const token = new TokenMethod(tokenConfig(chainID, settings.token));
  const pos = posConfig(chainID, settings.pos);
  return [
    new AuthModule(),
    new ValidatorsModule(),
    new TokenModule(token),
    new FeeModule(feeConfig(chainID, settings.fee), token),
    new MainchainInteroperabilityModule(),
    new PoSModule(pos, blockTime, token),
    new RandomModule(),
    new DynamicRewardModule({ config: rewardConfig(chainID, settings.dynamicReward), pos, token, blockTime }),
    new LegacyModule({ token, pos, chainID }),
  ];
};

/** The modules a node of this config runs (a mainchain; sidechains come later). */
export const applicationModules = (config: ApplicationConfig): Module[] => mainchainModules(config);

/**
 * Klayr's config schema of each module that takes settings, checked against `modules.<name>` when
 * the config loads (before any module is built from it), as Klayr's modules validate theirs at init.
 */
export const MODULE_CONFIG_SCHEMAS: Readonly<Record<string, SchemaProperty>> = {
  token: tokenConfigSchema,
  fee: feeConfigSchema,
  pos: posConfigSchema,
  dynamicReward: rewardConfigSchema,
};

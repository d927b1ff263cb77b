import type { Module } from '../engine/state_machine/module.js';
import type { SchemaProperty } from '../lib/codec/index.js';
import { AuthModule } from '../modules/auth/index.js';
import { rewardConfig, rewardConfigSchema } from '../modules/dynamic_reward/config.js';
import { DynamicRewardModule } from '../modules/dynamic_reward/index.js';
import { feeConfig, feeConfigSchema } from '../modules/fee/config.js';
import { FeeModule } from '../modules/fee/index.js';
import { MainchainInteroperabilityModule, SidechainInteroperabilityModule } from '../modules/interoperability/index.js';
import { LegacyModule } from '../modules/legacy/index.js';
import { posConfig, posConfigSchema } from '../modules/pos/config.js';
import { PoSModule } from '../modules/pos/index.js';
import { RandomModule } from '../modules/random/index.js';
import { tokenConfig, tokenConfigSchema } from '../modules/token/config.js';
import { TokenModule } from '../modules/token/index.js';
import { TokenMethod } from '../modules/token/method.js';
import { ValidatorsModule } from '../modules/validators/index.js';
import type { ApplicationConfig } from './config/types.js';

/**
 * Token, fee and interoperability wired as Klayr's defaultApplication wires them: token and fee
 * get the interoperability method, interoperability gets the token method, and token and fee are
 * registered as interoperable modules (their cross-chain hooks and commands, in that order).
 */
const interoperableModules = <I extends MainchainInteroperabilityModule | SidechainInteroperabilityModule>(
  interoperability: I,
  token: TokenMethod,
  config: ApplicationConfig,
  chainID: Buffer,
) => {
  const tokenModule = new TokenModule(token);
  const feeModule = new FeeModule(feeConfig(chainID, config.modules.fee), token);
  interoperability.setTokenMethod(token);
  feeModule.setInteroperabilityMethod(interoperability.method);
  tokenModule.setInteroperabilityMethod(interoperability.method);
  interoperability.registerInteroperableModule(tokenModule);
  interoperability.registerInteroperableModule(feeModule);
  return { tokenModule, feeModule, interoperability };
};

/**
 * Klayr's default application's modules in its registration order (auth, validators, token, fee,
 * interoperability, pos, random, dynamicReward, then Klayr Core's legacy on a mainchain), which is
 * the order their hooks run in, each built with its modules.<name> config. The validators module
 * has no hooks (other modules call its methods) but is registered.
 */
const defaultModules = (config: ApplicationConfig, mainchain: boolean): Module[] => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const { blockTime } = config.genesis;
  const settings = config.modules;
  const token = new TokenMethod(tokenConfig(chainID, settings.token));
  const pos = posConfig(chainID, settings.pos);
  const interop = mainchain ? new MainchainInteroperabilityModule() : new SidechainInteroperabilityModule();
  const { tokenModule, feeModule, interoperability } = interoperableModules(interop, token, config, chainID);
  return [
    new AuthModule(),
    new ValidatorsModule(),
    tokenModule,
    feeModule,
    interoperability,
    new PoSModule(pos, blockTime, token),
    new RandomModule(),
    new DynamicRewardModule({ config: rewardConfig(chainID, settings.dynamicReward), pos, token, blockTime }),
    ...(mainchain ? [new LegacyModule({ token, pos, chainID })] : []),
  ];
};

/** Klayr Core's mainchain modules. */
export const mainchainModules = (config: ApplicationConfig): Module[] => defaultModules(config, true);

/** Klayr's sidechain application (Application.defaultApplication without `mainchain`): no legacy module. */
export const sidechainModules = (config: ApplicationConfig): Module[] => defaultModules(config, false);

/** A network's mainchain has chain ID `xx000000`; any other chain runs the sidechain modules. */
export const isMainchainID = (chainID: Buffer): boolean => chainID.subarray(1).equals(Buffer.alloc(3));

/** The modules a node of this config runs: the mainchain set on a mainchain, the sidechain set otherwise. */
export const applicationModules = (config: ApplicationConfig): Module[] =>
  isMainchainID(Buffer.from(config.genesis.chainID, 'hex')) ? mainchainModules(config) : sidechainModules(config);

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

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenesisAssetInput } from '../../engine/genesis.js';
import { createGenesisBlock } from '../../engine/genesis.js';
import type { Block } from '../../lib/chain/block.js';
import { blockToJSON, encodeBlock } from '../../lib/chain/block.js';
import { rememberPopVerifications } from '../../lib/crypto/bls.js';
import type { KeyEntry } from '../commands/keys/derive.js';
import { networkDir } from '../config/networks.js';
import type { ApplicationConfig } from '../config/types.js';
import { applicationModules } from '../modules.js';
import { devnetProofsOfPossession } from './checked_genesis.js';
import { MAX_GENESIS_VALIDATORS } from './devnet_validators.js';

/**
 * Bootstrap rounds of a local chain whose genesis validators should generate for good: Klayr's PoS
 * elects by stake only after its genesis data's initRounds, and a local chain has no stakes. A
 * million rounds is months of blocks at any block time, and fits the field (uint32).
 */
export const FIXED_VALIDATORS_INIT_ROUNDS = 1_000_000;

/** The devnet's keys (its dev-validators.json, from the devnet passphrase): its accounts and validators. */
export const devnetKeys = (): KeyEntry[] =>
  (JSON.parse(readFileSync(join(networkDir('devnet'), 'dev-validators.json'), 'utf8')) as { keys: KeyEntry[] }).keys;

/** The devnet's genesis assets, as Klayr Core's devnet genesis_assets.json holds them (schemas included). */
export const devnetGenesisAssets = (): GenesisAssetInput[] =>
  (
    JSON.parse(readFileSync(join(networkDir('devnet'), 'genesis_assets.json'), 'utf8')) as {
      assets: GenesisAssetInput[];
    }
  ).assets;

/** Refuses a genesis validator count the devnet cannot have (Klayr's PoS genesis rule bounds it). */
export const checkGenesisValidators = (validators: number): void => {
  if (!Number.isInteger(validators) || validators < 1 || validators > MAX_GENESIS_VALIDATORS)
    throw new Error(
      `A devnet genesis block has 1 to ${MAX_GENESIS_VALIDATORS} genesis validators (Klayr's PoS allows no more than its ${MAX_GENESIS_VALIDATORS} active validators), not ${validators}`,
    );
};

/**
 * The devnet's genesis assets (the same accounts, balances, registered validators and legacy
 * accounts) with the first `validators` keys of dev-validators.json as the genesis validators,
 * for good (FIXED_VALIDATORS_INIT_ROUNDS): Klayr's BFT then needs the blocks of 2/3 of them, not
 * of 35 of 51, so finality comes within a few blocks.
 */
export const devnetAssetsWithGenesisValidators = (validators: number): GenesisAssetInput[] => {
  checkGenesisValidators(validators);
  const initValidators = devnetKeys()
    .slice(0, validators)
    .map((k) => k.address);
  return devnetGenesisAssets().map((asset) =>
    asset.module === 'pos'
      ? {
          ...asset,
          data: {
            ...(asset.data as Record<string, unknown>),
            genesisData: { initRounds: FIXED_VALIDATORS_INIT_ROUNDS, initValidators },
          },
        }
      : asset,
  );
};

/** A genesis block over the assets for this config's chain, built as `kestrel genesis-block:create` builds one (the node's modules compute its roots). */
export const createChainGenesisBlock = (
  config: ApplicationConfig,
  assets: readonly GenesisAssetInput[],
  timestamp: number,
): Block =>
  createGenesisBlock(
    { assets, chainID: Buffer.from(config.genesis.chainID, 'hex'), timestamp },
    applicationModules(config),
  );

/**
 * A devnet genesis block (chain 04000000, for a devnet config) with `validators` genesis
 * validators. Its proofs of possession are the devnet's, known valid: not paired again.
 */
export const createDevnetGenesisBlock = (config: ApplicationConfig, validators: number, timestamp: number): Block => {
  const assets = devnetAssetsWithGenesisValidators(validators);
  rememberPopVerifications(devnetProofsOfPossession().map((p) => ({ ...p, valid: true })));
  return createChainGenesisBlock(config, assets, timestamp);
};

/**
 * Writes the block into `dir` as `<name>.blob` (what genesis.block.fromFile names) and
 * `<name>.json` (to read); returns the blob's path.
 */
export const writeGenesisBlockFiles = (dir: string, name: string, block: Block): string => {
  mkdirSync(dir, { recursive: true });
  const blob = join(dir, `${name}.blob`);
  writeFileSync(blob, encodeBlock(block));
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(blockToJSON(block), null, '\t')}\n`);
  return blob;
};

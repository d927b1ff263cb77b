import type { GenesisAssetInput } from '../../engine/genesis.js';
import type { Block } from '../../lib/chain/block.js';
import type { Schema } from '../../lib/codec/index.js';
import { klayr32ToAddress } from '../../lib/crypto/index.js';
import { required } from '../../lib/required.js';
import type { KeyEntry } from '../commands/keys/derive.js';
import type { ApplicationConfig } from '../config/types.js';
import {
  createChainGenesisBlock,
  devnetGenesisAssets,
  FIXED_VALIDATORS_INIT_ROUNDS,
} from '../network/devnet_genesis.js';
import { SIDECHAIN_GENESIS_BALANCE, SIDECHAIN_TOKEN_ID } from './constants.js';

/**
 * Bootstrap rounds of the sidechain: its genesis validators generate every block for this many
 * rounds (Klayr's PoS elects by stake only after them). A local devnet has no stakes, so its
 * validator set stays the genesis one (a million rounds of 4 blocks: months at any block time).
 */
export const SIDECHAIN_INIT_ROUNDS = FIXED_VALIDATORS_INIT_ROUNDS;

/** The asset schemas, as Klayr Core's devnet genesis assets carry them. */
const devnetAssetSchemas = (): { token: Schema; pos: Schema; interoperability: Schema } => {
  const assets = devnetGenesisAssets();
  const schemaOf = (module: string): Schema =>
    required(
      assets.find((a) => a.module === module),
      `The devnet's ${module} genesis asset`,
    ).schema;
  return { token: schemaOf('token'), pos: schemaOf('pos'), interoperability: schemaOf('interoperability') };
};

const byAddress = (a: KeyEntry, b: KeyEntry): number =>
  Buffer.compare(klayr32ToAddress(a.address), klayr32ToAddress(b.address));

/**
 * Genesis assets in Klayr Core's format: every key's account holds SIDECHAIN_GENESIS_BALANCE of
 * the sidechain's token, every key is a genesis validator, and the interoperability asset is
 * empty (a sidechain's own account and the mainchain's come with its registerMainchain).
 */
export const sidechainGenesisAssets = (keys: readonly KeyEntry[]): GenesisAssetInput[] => {
  const schemas = devnetAssetSchemas();
  const sorted = [...keys].sort(byAddress);
  const token = {
    userSubstore: sorted.map((k) => ({
      address: k.address,
      tokenID: SIDECHAIN_TOKEN_ID,
      availableBalance: SIDECHAIN_GENESIS_BALANCE.toString(),
      lockedBalances: [],
    })),
    supplySubstore: [
      { tokenID: SIDECHAIN_TOKEN_ID, totalSupply: (SIDECHAIN_GENESIS_BALANCE * BigInt(keys.length)).toString() },
    ],
    escrowSubstore: [],
    supportedTokensSubstore: [],
  };
  const pos = {
    validators: keys.map((k, i) => ({
      address: k.address,
      name: `genesis_${i}`,
      blsKey: k.plain.blsKey,
      generatorKey: k.plain.generatorKey,
      proofOfPossession: k.plain.blsProofOfPossession,
      lastGeneratedHeight: 0,
      isBanned: false,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: 10000,
      lastCommissionIncreaseHeight: 0,
      sharingCoefficients: [],
    })),
    stakers: [],
    genesisData: { initRounds: SIDECHAIN_INIT_ROUNDS, initValidators: keys.map((k) => k.address) },
  };
  const interoperability = {
    ownChainName: '',
    ownChainNonce: '0',
    chainInfos: [],
    terminatedStateAccounts: [],
    terminatedOutboxAccounts: [],
  };
  return [
    { module: 'interoperability', data: interoperability, schema: schemas.interoperability },
    { module: 'token', data: token, schema: schemas.token },
    { module: 'pos', data: pos, schema: schemas.pos },
  ];
};

/** The sidechain's genesis block, built as `kestrel genesis-block:create` builds one (the node's modules for this config compute its roots). */
export const createSidechainGenesisBlock = (
  config: ApplicationConfig,
  keys: readonly KeyEntry[],
  timestamp: number,
): Block => createChainGenesisBlock(config, sidechainGenesisAssets(keys), timestamp);

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encryptWithPassword } from '../../lib/crypto/index.js';
import type { KeyEntry } from '../commands/keys/derive.js';
import { deriveKeys } from '../commands/keys/derive.js';
import { dataPathConfigDir, installNetworkConfig } from '../config/data_path_config.js';
import { loadConfig } from '../config/load.js';
import {
  checkGenesisValidators,
  createDevnetGenesisBlock,
  devnetKeys,
  writeGenesisBlockFiles,
} from '../network/devnet_genesis.js';
import {
  chainConnectorConfig,
  mainchainConfig,
  readDevnetConfig,
  readSavedConfig,
  sidechainConfig,
  writeSavedConfig,
} from './chain_config.js';
import {
  MAINCHAIN_GENESIS_FILE,
  MAINCHAIN_ID,
  RELAYER_ACCOUNT_INDEX,
  SIDECHAIN_GENESIS_FILE,
  SIDECHAIN_ID,
  SIDECHAIN_KEY_CHAINID,
  SIDECHAIN_VALIDATORS,
} from './constants.js';
import { stringifyEncryptedMessage } from './encrypted_message.js';
import type { NetworkLayout } from './layout.js';
import { createSidechainGenesisBlock } from './sidechain_genesis.js';

/** What `network:interop` keeps about a network besides its two data paths. */
export interface NetworkSettings {
  blockTime: number;
  /** Opens both relayer keys in the chainConnector configs (given to chainConnector_authorize). */
  relayerPassword: string;
  /**
   * The mainchain's genesis validators where it runs a devnet genesis block of its own
   * (`--mainchain-validators`); absent where it runs the devnet's genesis block.
   */
  mainchainValidators?: number;
}

/**
 * Argon2id settings of the relayer keys: lighter than Klayr's 2 GiB default, since the password
 * sits beside them in network.json on this local network (and each start decrypts twice).
 */
const RELAYER_KEY_KDF = { iterations: 1, parallelism: 4, memorySize: 65536 };

export const readSettings = (layout: NetworkLayout): NetworkSettings | undefined =>
  existsSync(layout.settings) ? (JSON.parse(readFileSync(layout.settings, 'utf8')) as NetworkSettings) : undefined;

const encryptedKey = async (privateKeyHex: string, password: string): Promise<string> =>
  stringifyEncryptedMessage(await encryptWithPassword(privateKeyHex, password, { kdfparams: RELAYER_KEY_KDF }));

/** The sidechain's keys, saved under its data path when the network was created. */
export const sidechainKeys = (sidechainDataPath: string): KeyEntry[] =>
  (
    JSON.parse(readFileSync(join(dataPathConfigDir(sidechainDataPath), 'dev-validators.json'), 'utf8')) as {
      keys: KeyEntry[];
    }
  ).keys;

const writeJSON = (file: string, value: unknown, mode = 0o644): void =>
  writeFileSync(file, `${JSON.stringify(value, null, '\t')}\n`, { mode });

/**
 * The mainchain's data path: the devnet's config, with a devnet genesis block of `validators`
 * genesis validators under config/ where the network has its own (`--mainchain-validators`).
 */
const createMainchain = (layout: NetworkLayout, settings: NetworkSettings, relayerKey: string): void => {
  installNetworkConfig('devnet', layout.mainchain, false);
  const validators = settings.mainchainValidators;
  if (validators !== undefined) {
    const block = createDevnetGenesisBlock(
      loadConfig({ dataPath: layout.mainchain }),
      validators,
      Math.floor(Date.now() / 1000),
    );
    writeGenesisBlockFiles(dataPathConfigDir(layout.mainchain), MAINCHAIN_GENESIS_FILE, block);
  }
  writeSavedConfig(
    layout.mainchain,
    mainchainConfig(
      readSavedConfig(layout.mainchain),
      settings.blockTime,
      chainConnectorConfig(SIDECHAIN_ID, relayerKey),
      validators !== undefined ? `./config/${MAINCHAIN_GENESIS_FILE}.blob` : undefined,
    ),
  );
};

const newSidechainKeys = async (): Promise<{ passphrase: string; keys: KeyEntry[] }> => {
  const [{ generateMnemonic }, { wordlist }] = await Promise.all([
    import('@scure/bip39'),
    import('@scure/bip39/wordlists/english'),
  ]);
  const passphrase = generateMnemonic(wordlist, 256);
  const keys = await deriveKeys(passphrase, {
    count: SIDECHAIN_VALIDATORS,
    offset: 0,
    chainid: SIDECHAIN_KEY_CHAINID,
    addLegacy: false,
    password: undefined,
    cipher: 'aes-128-gcm',
  });
  return { passphrase, keys };
};

const createSidechain = (
  layout: NetworkLayout,
  blockTime: number,
  { passphrase, keys }: { passphrase: string; keys: KeyEntry[] },
  relayerKey: string,
): void => {
  const dir = dataPathConfigDir(layout.sidechain);
  mkdirSync(dir, { recursive: true });
  writeJSON(join(dir, 'passphrase.json'), { passphrase }, 0o600);
  writeJSON(join(dir, 'dev-validators.json'), { keys }, 0o600);
  writeSavedConfig(
    layout.sidechain,
    sidechainConfig(readDevnetConfig(), blockTime, chainConnectorConfig(MAINCHAIN_ID, relayerKey)),
  );
  const block = createSidechainGenesisBlock(
    loadConfig({ dataPath: layout.sidechain }),
    keys,
    Math.floor(Date.now() / 1000),
  );
  writeGenesisBlockFiles(dir, SIDECHAIN_GENESIS_FILE, block);
};

/**
 * Creates the network under an empty (or new) directory: the mainchain's data path with the
 * devnet's config (and genesis block, or one of `mainchainValidators` genesis validators), the sidechain's with a fresh passphrase, its keys and genesis block, both
 * configs with the chainConnector plugin relaying to the other chain, then network.json, written
 * last: a directory without it is not a network. A failure removes what was written.
 */
export const createNetwork = async (
  layout: NetworkLayout,
  blockTime: number,
  mainchainValidators?: number,
): Promise<NetworkSettings> => {
  if (mainchainValidators !== undefined) checkGenesisValidators(mainchainValidators);
  if (existsSync(layout.root) && readdirSync(layout.root).length > 0) {
    throw new Error(
      `${layout.root} is not empty and holds no interop network (no network.json): give a new or empty directory as --data-path`,
    );
  }
  mkdirSync(layout.root, { recursive: true });
  const settings: NetworkSettings = {
    blockTime,
    relayerPassword: randomBytes(24).toString('base64url'),
    ...(mainchainValidators !== undefined ? { mainchainValidators } : {}),
  };
  try {
    const sidechain = await newSidechainKeys();
    // each chain's connector posts on the other chain, with an account of that chain
    const toSidechain = await encryptedKey(sidechain.keys[RELAYER_ACCOUNT_INDEX].privateKey, settings.relayerPassword);
    const toMainchain = await encryptedKey(devnetKeys()[RELAYER_ACCOUNT_INDEX].privateKey, settings.relayerPassword);
    createSidechain(layout, blockTime, sidechain, toMainchain);
    createMainchain(layout, settings, toSidechain);
    writeJSON(layout.settings, settings, 0o600);
    return settings;
  } catch (e) {
    rmSync(layout.mainchain, { recursive: true, force: true });
    rmSync(layout.sidechain, { recursive: true, force: true });
    throw e;
  }
};

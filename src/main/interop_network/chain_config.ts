import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outboxRootStateTreeKey } from '../../lib/interop/store_keys.js';
import { posWindows } from '../child_nodes/pos_windows.js';
import { rpcWsURL } from '../child_nodes/rpc.js';
import { dataPathConfigFile } from '../config/data_path_config.js';
import { networkDir } from '../config/networks.js';
import {
  MAINCHAIN_ID,
  SIDECHAIN_GENESIS_FILE,
  SIDECHAIN_ID,
  SIDECHAIN_TOKEN_ID,
  SIDECHAIN_VALIDATORS,
} from './constants.js';

type JSONObject = Record<string, unknown>;

/** A config as the JSON file it is (edited key by key, the rest kept as the user left it). */
interface JSONConfig {
  [section: string]: unknown;
  system?: JSONObject;
  rpc?: JSONObject;
  network?: JSONObject;
  genesis?: JSONObject;
  modules: Record<string, JSONObject | undefined>;
  plugins?: Record<string, JSONObject | undefined>;
}

/**
 * `plugins.chainConnector` of one chain (Klayr's key names): it relays this chain's CCMs to the
 * receiving chain, signing with the relayer key that the chainConnector_authorize password opens.
 * The receiving chain's URL is set on every start, from the ports of that run.
 */
export const chainConnectorConfig = (receivingChainID: string, encryptedPrivateKey: string): JSONObject => ({
  receivingChainID,
  encryptedPrivateKey,
});

/**
 * Endpoints served: every namespace, and chainConnector, which a plugin serves only where it is
 * listed by name (`network:interop` authorizes it over RPC).
 */
const ALLOWED_METHODS = ['*', 'chainConnector'];

/**
 * The devnet's config with this network's block time, the chainConnector plugin and its endpoints,
 * and the genesis block file given (relative to the data path), if any.
 */
export const mainchainConfig = (
  devnet: JSONConfig,
  blockTime: number,
  connector: JSONObject,
  genesisFile?: string,
): JSONConfig => ({
  ...devnet,
  rpc: { ...devnet.rpc, allowedMethods: ALLOWED_METHODS },
  genesis: { ...devnet.genesis, blockTime, ...(genesisFile !== undefined ? { block: { fromFile: genesisFile } } : {}) },
  modules: { ...devnet.modules, pos: { ...devnet.modules.pos, ...posWindows(blockTime) } },
  plugins: { ...devnet.plugins, chainConnector: connector },
});

/**
 * The sidechain's config, the devnet's with: its chain ID, its token as fee, reward and PoS token,
 * its validators all active (no standby slots), the state proof its chainConnector needs (the
 * outbox root of its channel to the mainchain, as the devnet keeps the sidechain's), its own
 * genesis block and keys under its data path.
 */
export const sidechainConfig = (devnet: JSONConfig, blockTime: number, connector: JSONObject): JSONConfig => ({
  ...devnet,
  system: {
    ...devnet.system,
    inclusionProofKeys: [outboxRootStateTreeKey(Buffer.from(MAINCHAIN_ID, 'hex')).toString('hex')],
  },
  rpc: { ...devnet.rpc, allowedMethods: ALLOWED_METHODS },
  genesis: {
    ...devnet.genesis,
    chainID: SIDECHAIN_ID,
    blockTime,
    block: { fromFile: `./config/${SIDECHAIN_GENESIS_FILE}.blob` },
  },
  generator: { keys: { fromFile: './config/dev-validators.json' } },
  modules: {
    dynamicReward: { ...devnet.modules.dynamicReward, tokenID: SIDECHAIN_TOKEN_ID },
    fee: { feeTokenID: SIDECHAIN_TOKEN_ID },
    pos: {
      ...devnet.modules.pos,
      ...posWindows(blockTime),
      posTokenID: SIDECHAIN_TOKEN_ID,
      numberActiveValidators: SIDECHAIN_VALIDATORS,
      numberStandbyValidators: 0,
    },
  },
  plugins: { chainConnector: connector },
});

export const readDevnetConfig = (): JSONConfig =>
  JSON.parse(readFileSync(join(networkDir('devnet'), 'config.json'), 'utf8')) as JSONConfig;

export const readSavedConfig = (dataPath: string): JSONConfig =>
  JSON.parse(readFileSync(dataPathConfigFile(dataPath), 'utf8')) as JSONConfig;

export const writeSavedConfig = (dataPath: string, config: JSONConfig): void =>
  writeFileSync(dataPathConfigFile(dataPath), `${JSON.stringify(config, null, '\t')}\n`);

/**
 * This run's ports, in the chain's saved config: its own RPC port, its chainConnector's receiving
 * chain URL, and its P2P server (each chain is a network of one node) on a loopback address of
 * its own at the RPC port's number.
 */
export const setPorts = (dataPath: string, ownPort: number, receivingPort: number, p2pHost: string): void => {
  const config = readSavedConfig(dataPath);
  config.rpc = { ...config.rpc, port: ownPort };
  config.network = { ...config.network, host: p2pHost, port: ownPort, seedPeers: [] };
  config.plugins = {
    ...config.plugins,
    chainConnector: { ...config.plugins?.chainConnector, receivingChainWsURL: rpcWsURL(receivingPort) },
  };
  writeSavedConfig(dataPath, config);
};

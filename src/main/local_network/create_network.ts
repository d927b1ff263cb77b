import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Block } from '../../lib/chain/block.js';
import { dataPathConfigDir, dataPathConfigFile, installNetworkConfig } from '../config/data_path_config.js';
import { loadConfig } from '../config/load.js';
import {
  checkGenesisValidators,
  createDevnetGenesisBlock,
  devnetKeys,
  writeGenesisBlockFiles,
} from '../network/devnet_genesis.js';
import type { LocalNetworkLayout } from './layout.js';
import { LOCAL_GENESIS_FILE, nodeDataPath, nodeKeysFile } from './layout.js';
import { validatorShare } from './node_config.js';
import type { LocalNetworkSettings } from './settings.js';
import { writeSettings } from './settings.js';

/**
 * Saves the devnet's config under the node's data path (as its first start would) with the
 * network's genesis block beside it, which the saved config's genesis.block.fromFile names: so the
 * node runs that chain with or without its overlay (`kestrel start -d <node>`).
 */
const installGenesisBlock = (dataPath: string, block: Block): void => {
  installNetworkConfig('devnet', dataPath, false);
  writeGenesisBlockFiles(dataPathConfigDir(dataPath), LOCAL_GENESIS_FILE, block);
  const file = dataPathConfigFile(dataPath);
  const config = JSON.parse(readFileSync(file, 'utf8')) as { genesis?: Record<string, unknown> };
  config.genesis = { ...config.genesis, block: { fromFile: `./config/${LOCAL_GENESIS_FILE}.blob` } };
  writeFileSync(file, `${JSON.stringify(config, null, '\t')}\n`);
};

/**
 * Creates the network under an empty (or new) directory: one data path per node holding its share
 * of the devnet validators' keys (mode 600), with `--validators`, the network's own devnet genesis
 * block and the config naming it, then network.json, written last: a directory without it is not
 * a network. Without `--validators` each node saves the devnet's config under its data path on its
 * first start. A failure removes what was written.
 */
export const createLocalNetwork = (layout: LocalNetworkLayout, settings: LocalNetworkSettings): void => {
  if (settings.validators !== undefined) checkGenesisValidators(settings.validators);
  if (existsSync(layout.root) && readdirSync(layout.root).length > 0)
    throw new Error(
      `${layout.root} is not empty and holds no local network (no network.json): give a new or empty directory as --data-path`,
    );
  mkdirSync(layout.root, { recursive: true });
  const keys = devnetKeys();
  const made: string[] = [];
  try {
    // one block for every node: the same chain
    const genesis =
      settings.validators === undefined
        ? undefined
        : createDevnetGenesisBlock(
            loadConfig({ network: 'devnet' }, { savedConfig: false }),
            settings.validators,
            Math.floor(Date.now() / 1000),
          );
    for (let i = 0; i < settings.nodes; i++) {
      const dataPath = nodeDataPath(layout, i);
      mkdirSync(dataPath);
      made.push(dataPath);
      writeFileSync(
        nodeKeysFile(dataPath),
        `${JSON.stringify({ keys: validatorShare(keys, i, settings.nodes) }, null, '\t')}\n`,
        { mode: 0o600 },
      );
      if (genesis !== undefined) installGenesisBlock(dataPath, genesis);
    }
    writeSettings(layout, settings);
  } catch (e) {
    for (const dataPath of made) rmSync(dataPath, { recursive: true, force: true });
    throw e;
  }
};

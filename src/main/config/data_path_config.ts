import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ConfigError } from './errors.js';
import type { NetworkName } from './networks.js';
import { NETWORKS, networkDir } from './networks.js';
import type { ApplicationConfig } from './types.js';

/** Klayr Core's place for a node's config: `<dataPath>/config/`, holding config.json, the genesis block and the network's other files. */
export const dataPathConfigDir = (dataPath: string): string => join(dataPath, 'config');
export const dataPathConfigFile = (dataPath: string): string => join(dataPathConfigDir(dataPath), 'config.json');

export type NetworkConfigInstall = 'installed' | 'overwritten' | 'kept';

/**
 * As Klayr Core's start command: the network's config directory is copied under the data path
 * when none is there yet, and over the one there only with `--overwrite-config`. A data path
 * whose genesis block is not the network's needs the flag.
 */
export const installNetworkConfig = (network: string, dataPath: string, overwrite: boolean): NetworkConfigInstall => {
  if (!(NETWORKS as readonly string[]).includes(network))
    throw new ConfigError([`Unknown network "${network}". Available networks: ${NETWORKS.join(', ')}`]);
  const source = networkDir(network as NetworkName);
  const target = dataPathConfigDir(dataPath);
  const savedGenesis = join(target, 'genesis_block.blob');
  if (!overwrite && existsSync(savedGenesis) && !readFileSync(savedGenesis).equals(networkGenesisBlob(source))) {
    throw new ConfigError([
      `data path ${dataPath} already contains configs for another genesis block than ${network}'s; use --overwrite-config to overwrite the config`,
    ]);
  }
  const existed = existsSync(target);
  if (existed && !overwrite) return 'kept';
  mkdirSync(target, { recursive: true });
  // a gzipped file is saved decompressed, under the name Klayr's config refers to
  for (const name of readdirSync(source)) {
    if (name.endsWith('.gz'))
      writeFileSync(join(target, name.slice(0, -3)), gunzipSync(readFileSync(join(source, name))));
    else copyFileSync(join(source, name), join(target, name));
  }
  return existed ? 'overwritten' : 'installed';
};

const networkGenesisBlob = (dir: string): Buffer => {
  const plain = join(dir, 'genesis_block.blob');
  return existsSync(plain) ? readFileSync(plain) : gunzipSync(readFileSync(`${plain}.gz`));
};

/**
 * The config saved under the data path, if any. Its relative file paths are relative to the data
 * path, as Klayr resolves them (Klayr's `./config/genesis_block.blob`); its `system.dataPath` is
 * ignored, the data path being where it was found.
 */
export const readDataPathConfig = (dataPath: string): Partial<ApplicationConfig> | undefined => {
  const file = dataPathConfigFile(dataPath);
  if (!existsSync(file)) return undefined;
  let saved: Partial<ApplicationConfig>;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<ApplicationConfig>;
  } catch (e) {
    throw new ConfigError([`config file ${file} is not valid JSON: ${(e as Error).message}`]);
  }
  const from = (p: string): string => {
    const path = p === '~' || p.startsWith('~/') ? `${homedir()}${p.slice(1)}` : p;
    return isAbsolute(path) ? path : resolve(dataPath, path);
  };
  const { dataPath: _ignored, ...system } = (saved.system ?? {}) as Partial<ApplicationConfig['system']>;
  const out: Partial<ApplicationConfig> = { ...saved, system: system as ApplicationConfig['system'] };
  if (saved.genesis?.block?.fromFile !== undefined)
    out.genesis = {
      ...saved.genesis,
      block: { ...saved.genesis.block, fromFile: from(saved.genesis.block.fromFile) },
    };
  if (saved.generator?.keys?.fromFile !== undefined)
    out.generator = {
      ...saved.generator,
      keys: { ...saved.generator.keys, fromFile: from(saved.generator.keys.fromFile) },
    };
  return out;
};

import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { compileValidator } from '../../lib/codec/index.js';
import { readDataPathConfig } from './data_path_config.js';
import { defaultConfig } from './defaults.js';
import { ConfigError } from './errors.js';
import { absolutePath } from './home.js';
import { mergeConfig } from './merge.js';
import { moduleConfigProblems } from './module_config.js';
import { networkPreset } from './networks.js';
import { applicationConfigSchema } from './schema.js';
import type { ApplicationConfig, LogLevel, PeerInfo, RpcMode } from './types.js';

/** The Klayr Core flags that shape the config. */
export interface ConfigFlags {
  network?: string;
  dataPath?: string;
  config?: string;
  apiIpc?: boolean;
  apiWs?: boolean;
  apiHttp?: boolean;
  apiPort?: number;
  apiHost?: string;
  /** The P2P port (network.port). */
  port?: number;
  /** network.seedPeers, replacing the config's. */
  seedPeers?: PeerInfo[];
  log?: LogLevel;
}

export { ConfigError };

const validateConfig = compileValidator(applicationConfigSchema);

const readConfigFile = (path: string): { config: Partial<ApplicationConfig>; dir: string } => {
  const absolute = absolutePath(path);
  if (!existsSync(absolute)) throw new ConfigError([`config file ${absolute} does not exist`]);
  try {
    return { config: JSON.parse(readFileSync(absolute, 'utf8')) as Partial<ApplicationConfig>, dir: dirname(absolute) };
  } catch (e) {
    throw new ConfigError([`config file ${absolute} is not valid JSON: ${(e as Error).message}`]);
  }
};

/** The flags' config; as Klayr Core's, --api-ipc/--api-ws/--api-http name the transports (they replace rpc.modes). */
const flagLayer = (flags: ConfigFlags): Record<string, unknown> => {
  const flaggedModes: RpcMode[] = [];
  if (flags.apiIpc === true) flaggedModes.push('ipc');
  if (flags.apiWs === true) flaggedModes.push('ws');
  if (flags.apiHttp === true) flaggedModes.push('http');
  const rpc: Record<string, unknown> = {};
  if (flaggedModes.length > 0) rpc.modes = flaggedModes;
  if (flags.apiPort !== undefined) rpc.port = flags.apiPort;
  if (flags.apiHost !== undefined) rpc.host = flags.apiHost;
  const system: Record<string, unknown> = {};
  if (flags.dataPath !== undefined) system.dataPath = flags.dataPath;
  if (flags.log !== undefined) system.logLevel = flags.log;
  const network: Record<string, unknown> = {};
  if (flags.port !== undefined) network.port = flags.port;
  if (flags.seedPeers !== undefined) network.seedPeers = flags.seedPeers;
  return { rpc, system, network };
};

/** Relative file references in a config file are relative to that file's directory. */
const resolveFiles = (config: Partial<ApplicationConfig>, dir: string): Partial<ApplicationConfig> => {
  const from = (p: string | undefined): string | undefined => (p === undefined || isAbsolute(p) ? p : resolve(dir, p));
  const out = structuredClone(config);
  if (out.genesis?.block?.fromFile !== undefined) out.genesis.block.fromFile = from(out.genesis.block.fromFile);
  if (out.generator?.keys?.fromFile !== undefined) out.generator.keys.fromFile = from(out.generator.keys.fromFile);
  return out;
};

/** The data path a command works on: the flag, else the config file's, else Kestrel's default. */
export const configDataPath = (flags: ConfigFlags = {}): string => {
  const fromFile = flags.config !== undefined ? readConfigFile(flags.config).config.system?.dataPath : undefined;
  return absolutePath(flags.dataPath ?? fromFile ?? defaultConfig().system.dataPath);
};

export interface LoadConfigOptions {
  /** false: the network preset even where a config is saved under the data path (what `start --overwrite-config` will run with). Default true. */
  savedConfig?: boolean;
}

/**
 * Defaults <- network preset (or the config saved under the data path, as Klayr Core reads
 * `<dataPath>/config/config.json`) <- config file <- flags, then validated; every problem is
 * reported with its JSON path and nothing starts on a wrong config.
 */
export const loadConfig = (flags: ConfigFlags = {}, options: LoadConfigOptions = {}): ApplicationConfig => {
  const network = flags.network ?? 'devnet';
  let preset: Partial<ApplicationConfig>;
  try {
    preset = networkPreset(network);
  } catch (e) {
    throw new ConfigError([(e as Error).message]);
  }
  const file = flags.config !== undefined ? readConfigFile(flags.config) : undefined;
  const base = (options.savedConfig === false ? undefined : readDataPathConfig(configDataPath(flags))) ?? preset;
  const layered = mergeConfig(
    defaultConfig(),
    base,
    file === undefined ? undefined : resolveFiles(file.config, file.dir),
  );
  const config = mergeConfig(layered, flagLayer(flags));
  const problems = validateConfig(config).map((i) => `config${i.dataPath}: ${i.message}`);
  if (problems.length === 0) problems.push(...moduleConfigProblems(config.modules, config.genesis.blockTime));
  if (problems.length > 0) throw new ConfigError(problems);
  config.system.dataPath = absolutePath(config.system.dataPath);
  return config;
};

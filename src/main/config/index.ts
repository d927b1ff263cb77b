export { loadConfig, ConfigError, expandHome } from './load.js';
export type { ConfigFlags } from './load.js';
export { defaultConfig } from './defaults.js';
export { NETWORKS, networkPreset } from './networks.js';
export { applicationConfigSchema } from './schema.js';
export type { ApplicationConfig, LogLevel, RpcMode } from './types.js';

import type { ApplicationConfig } from './config/types.js';

/** Whether the config enables a plugin (plugins.ts's enabledPlugins would start one). */
export const enablesPlugins = (config: ApplicationConfig): boolean =>
  config.plugins.chainConnector !== undefined || config.plugins.reportMisbehavior !== undefined;

/** plugins.ts's startPlugins, as a type only: the module itself is loaded on demand below. */
type StartPlugins = typeof import('./plugins.js').startPlugins;

/**
 * plugins.ts's startPlugins, its module loaded only when the config enables a plugin: the plugins' code,
 * their WebSocket client and the `ccu` pool's are not loaded by a node that runs none (a first start's
 * first answer waits for every module the node loads).
 */
export const startPlugins = async (...args: Parameters<StartPlugins>): ReturnType<StartPlugins> =>
  enablesPlugins(args[0]) ? (await import('./plugins.js')).startPlugins(...args) : undefined;

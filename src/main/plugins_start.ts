import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import type { RPCMetrics } from '../rpc/metrics.js';
import type { EndpointRegistry } from '../rpc/registry.js';
import type { ApplicationConfig } from './config/types.js';
import type { NodePlugins } from './plugins.js';

/** Whether the config enables a plugin (plugins.ts's enabledPlugins would start one). */
export const enablesPlugins = (config: ApplicationConfig): boolean =>
  config.plugins.chainConnector !== undefined || config.plugins.reportMisbehavior !== undefined;

/**
 * plugins.ts's startPlugins, its module loaded only when the config enables a plugin: the plugins' code,
 * their WebSocket client and the `ccu` pool's are not loaded by a node that runs none (a first start's
 * first answer waits for every module the node loads).
 */
export const startPlugins = async (
  config: ApplicationConfig,
  chain: Chain,
  registry: EndpointRegistry,
  logger: Logger,
  metrics?: RPCMetrics,
  syncing?: () => boolean,
): Promise<NodePlugins | undefined> =>
  enablesPlugins(config)
    ? (await import('./plugins.js')).startPlugins(config, chain, registry, logger, metrics, syncing)
    : undefined;

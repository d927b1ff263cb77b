import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import type { CCUBuilder } from '../engine/pools/ccu_builder.js';
import type { Block } from '../lib/chain/block.js';
import type { BlockEvent } from '../lib/chain/events.js';
import { TaskTally } from '../lib/pool_stats.js';
import { required } from '../lib/required.js';
import { CHAIN_CONNECTOR_NAME, ChainConnectorPlugin } from '../plugins/chain_connector/index.js';
import { PluginHost } from '../plugins/host.js';
import { REPORT_MISBEHAVIOR_NAME, ReportMisbehaviorPlugin } from '../plugins/report_misbehavior/index.js';
import type { OwnChainView, Plugin } from '../plugins/types.js';
import { connectIPC, connectWS } from '../rpc/client.js';
import type { RPCMetrics } from '../rpc/metrics.js';
import type { EndpointRegistry } from '../rpc/registry.js';
import { createPooledCCUBuilder } from '../workers/ccu_builder.js';
import type { ApplicationConfig } from './config/types.js';

/**
 * The plugins a config enables: chainConnector when plugins.chainConnector is set (also by
 * --enable-chain-connector-plugin), reportMisbehavior when plugins.reportMisbehavior is (also by
 * --enable-report-misbehavior-plugin).
 */
export const enabledPlugins = (config: ApplicationConfig): Plugin[] => [
  ...(config.plugins[CHAIN_CONNECTOR_NAME] !== undefined ? [new ChainConnectorPlugin()] : []),
  ...(config.plugins[REPORT_MISBEHAVIOR_NAME] !== undefined ? [new ReportMisbehaviorPlugin()] : []),
];

/** What a plugin may read of the node's chain, in process: BFT state, own endpoints, the `ccu` pool. */
export const ownChainView = (
  config: ApplicationConfig,
  chain: Chain,
  registry: EndpointRegistry,
  ccuBuilder: CCUBuilder,
  syncing: () => boolean = () => false,
): OwnChainView => ({
  chainID: Buffer.from(config.genesis.chainID, 'hex'),
  dataPath: config.system.dataPath,
  syncing,
  bftHeights: () => chain.bft.getBFTHeights(chain.engineView()),
  activeValidatorsAt: (height) => chain.bft.getBFTParametersActiveValidators(chain.engineView(), height),
  invoke: async (method, params = {}) => {
    const endpoint = registry.get(method);
    if (endpoint === undefined) throw new Error(`Method ${method} is not registered on this node`);
    return endpoint.handler({ params, transport: 'ipc' });
  },
  ccuBuilder,
});

/** A CCU builder made on its first CCU: a node whose plugins build none (reportMisbehavior alone) runs no `ccu` worker. */
const onFirstBuild = (create: () => CCUBuilder): CCUBuilder => {
  let builder: CCUBuilder | undefined;
  const idle = new TaskTally();
  return {
    build: (request) => {
      builder ??= create();
      return builder.build(request);
    },
    stats: () => builder?.stats() ?? idle.stats(),
    close: async () => builder?.close(),
  };
};

/** The node's plugin host with the plugins its config enables, started (their endpoints registered, the `ccu` pool on /metrics); undefined when none is. */
export const startPlugins = async (
  config: ApplicationConfig,
  chain: Chain,
  registry: EndpointRegistry,
  logger: Logger,
  metrics?: RPCMetrics,
  /** Whether block synchronization runs (a plugin's chain.syncing()). */
  syncing?: () => boolean,
): Promise<NodePlugins | undefined> => {
  const plugins = enabledPlugins(config);
  if (plugins.length === 0) return undefined;
  const ccuBuilder = onFirstBuild(() => createPooledCCUBuilder(1));
  metrics?.watchPool('ccu', () => ccuBuilder.stats());
  const host = new PluginHost({
    dataPath: config.system.dataPath,
    chain: ownChainView(config, chain, registry, ccuBuilder, syncing),
    logger,
    registerEndpoints: (namespace, endpoints) => registry.registerNamespace(namespace, endpoints, 'application'),
    connect: ({ wsURL, ipcPath }) =>
      wsURL !== undefined
        ? connectWS(wsURL)
        : connectIPC(required(ipcPath, 'The IPC path of a remote chain target without a WebSocket URL')),
    configOf: (name) => config.plugins[name],
  });
  try {
    for (const plugin of plugins) await host.start(plugin);
  } catch (error) {
    await host.stop();
    await ccuBuilder.close();
    throw error;
  }
  return new NodePlugins(host, ccuBuilder);
};

/** The node's side of its plugins: committed, deleted and received blocks in, stop. */
export class NodePlugins {
  constructor(
    readonly host: PluginHost,
    private readonly ccuBuilder: CCUBuilder,
  ) {}

  blockCommitted({ block, events }: { block: Block; events: readonly BlockEvent[] }): void {
    this.host.blockCommitted({ header: block.header, events, assets: block.assets });
  }

  blockDeleted(block: Block): void {
    this.host.blockDeleted(block.header);
  }

  /** A block a peer sent, before the node checks it. */
  blockReceived(block: Block): void {
    this.host.blockReceived(block.header);
  }

  async stop(): Promise<void> {
    await this.host.stop();
    await this.ccuBuilder.close();
  }
}

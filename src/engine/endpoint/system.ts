import {
  blockAssetSchema,
  blockHeaderSchema,
  blockSchema,
  eventSchema,
  standardEventDataSchema,
} from '../../lib/chain/schemas.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import type { ModuleMetadata } from '../../lib/endpoint/metadata.js';
import { transactionSchema } from '../../lib/transaction/schema.js';

/** What the chain reports about itself (filled by the chain engine). */
export interface ChainStatus {
  lastBlockID: string;
  height: number;
  finalizedHeight: number;
  syncing: boolean;
  unconfirmedTransactions: number;
  genesisHeight: number;
}

export interface SystemEndpointDeps {
  version: string;
  chainID: string;
  genesis: Record<string, unknown>;
  network: {
    version?: string;
    port?: number;
    host?: string;
    seedPeers?: unknown;
    blacklistedIPs?: unknown;
    fixedPeers?: unknown;
    whitelistedPeers?: unknown;
  };
  chainStatus: () => ChainStatus;
  modules: () => ModuleMetadata[];
  /** Prometheus metrics, when system.enableMetrics is on. */
  metrics?: { text(): Promise<string>; json(): Promise<unknown> };
}

const schemas = {
  block: blockSchema,
  header: blockHeaderSchema,
  asset: blockAssetSchema,
  transaction: transactionSchema,
  event: eventSchema,
  standardEvent: standardEventDataSchema,
};

/** The system namespace: node info and schemas as Klayr Core answers them, plus health. */
export const systemEndpoints = (deps: SystemEndpointDeps): Record<string, EndpointDefinition> => ({
  getNodeInfo: {
    description: 'Version, chain ID, heights, sync state, genesis and network configuration of this node.',
    handler: () => {
      const status = deps.chainStatus();
      const n = deps.network;
      return {
        version: deps.version,
        networkVersion: n.version,
        chainID: deps.chainID,
        lastBlockID: status.lastBlockID,
        height: status.height,
        finalizedHeight: status.finalizedHeight,
        syncing: status.syncing,
        unconfirmedTransactions: status.unconfirmedTransactions,
        genesisHeight: status.genesisHeight,
        genesis: { ...deps.genesis },
        network: {
          version: n.version,
          port: n.port,
          host: n.host,
          seedPeers: n.seedPeers,
          blacklistedIPs: n.blacklistedIPs,
          fixedPeers: n.fixedPeers,
          whitelistedPeers: n.whitelistedPeers,
        },
      };
    },
  },
  getMetadata: {
    description:
      'For each registered module: endpoints, commands with params schemas, events with data schemas, assets, stores.',
    constant: true,
    handler: () => ({ modules: deps.modules() }),
  },
  getSchema: {
    description: 'The block, header, asset, transaction, event and standard event schemas.',
    constant: true,
    handler: () => schemas,
  },
  getMetricsReport: {
    description: "The node's Prometheus metrics: as JSON, or in the text exposition format with { inString: true }.",
    params: { type: 'object', properties: { inString: { type: 'boolean' } } },
    handler: async ({ params }) => {
      if (deps.metrics === undefined) throw new Error('metrics is not enabled');
      return params.inString === true ? deps.metrics.text() : deps.metrics.json();
    },
  },
  health: {
    description: 'Whether the node answers, with its height.',
    handler: () => ({ status: 'ok', height: deps.chainStatus().height }),
  },
});

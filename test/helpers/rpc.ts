import { pino } from 'pino';
import { systemEndpoints } from '../../src/engine/system/endpoint.js';
import { loadConfig } from '../../src/main/config/index.js';
import { RPCMetrics } from '../../src/rpc/metrics.js';
import { EndpointRegistry } from '../../src/rpc/registry.js';
import { RPCServer } from '../../src/rpc/server.js';
import type { RPCConfig } from '../../src/rpc/server.js';
import { tempDataPath } from './state.js';

/** A registry with the system namespace (over a fixed chain status) and test endpoints of three namespaces. */
export const testRegistry = (): EndpointRegistry => {
  const registry = new EndpointRegistry();
  const config = loadConfig();
  registry.registerNamespace(
    'system',
    systemEndpoints({
      version: '0.1.0',
      chainID: config.genesis.chainID,
      genesis: config.genesis as unknown as Record<string, unknown>,
      network: config.network,
      chainStatus: () => ({ lastBlockID: '00'.repeat(32), height: 7, finalizedHeight: 5, syncing: false, unconfirmedTransactions: 0, genesisHeight: 0 }),
      modules: () => [],
    }),
  );
  registry.registerNamespace('test', {
    echo: {
      params: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 10 } } },
      handler: (ctx) => ({ text: ctx.params.text, transport: ctx.transport }),
    },
    fail: { handler: () => Promise.reject(new Error('handler says no')) },
    empty: { handler: () => undefined },
    bigint: { handler: () => ({ amount: 1n }) },
    asyncBigint: { handler: async () => ({ amount: 1n }) },
  });
  registry.registerNamespace('generator', { getStatus: { handler: () => ({ status: [] }) } });
  return registry;
};

export interface TestServer {
  server: RPCServer;
  dataPath: string;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export const startTestServer = async (rpc: Partial<RPCConfig> = {}, engine: 'uws' | 'node' = 'uws'): Promise<TestServer> => {
  const dataPath = tempDataPath();
  const server = new RPCServer({
    rpc: { modes: ['http', 'ws', 'ipc'], host: '127.0.0.1', port: 0, allowedMethods: ['*'], ...rpc },
    dataPath,
    registry: testRegistry(),
    logger: pino({ level: 'silent' }),
    metrics: new RPCMetrics(),
    engine,
    version: '0.1.0',
  });
  await server.start();
  return {
    server,
    dataPath,
    url: `http://127.0.0.1:${server.port}/rpc`,
    wsUrl: `ws://127.0.0.1:${server.port}/rpc-ws`,
    close: () => server.stop(),
  };
};

export const post = async (url: string, body: string): Promise<{ status: number; json: unknown; text: string }> => {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
};

export const rpc = (method: string, params?: unknown, id: number | string | null = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });

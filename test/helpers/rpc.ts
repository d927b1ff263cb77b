import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { systemEndpoints } from '../../src/engine/endpoint/system.js';
import { loadConfig } from '../../src/main/config/index.js';
import { RPCMetrics } from '../../src/rpc/metrics.js';
import { EndpointRegistry } from '../../src/rpc/registry.js';
import type { RPCConfig } from '../../src/rpc/server.js';
import { RPCServer } from '../../src/rpc/server.js';
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
      chainStatus: () => ({
        lastBlockID: '00'.repeat(32),
        height: 7,
        finalizedHeight: 5,
        syncing: false,
        unconfirmedTransactions: 0,
        genesisHeight: 0,
      }),
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
    asyncEcho: {
      params: { type: 'object', properties: { text: { type: 'string' } } },
      handler: async (ctx) => ({ text: ctx.params.text }),
    },
  });
  registry.registerNamespace('generator', { getStatus: { handler: () => ({ status: [] }) } });
  // served as Klayr Core's application serves its modules' and plugins' endpoints: errors answered as results
  registry.registerNamespace(
    'app',
    {
      echo: {
        params: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 10 } } },
        handler: (ctx) => ({ text: ctx.params.text }),
      },
      fail: { handler: () => Promise.reject(new Error('module says no')) },
      empty: { handler: () => undefined },
    },
    'application',
  );
  return registry;
};

export interface TestServer {
  server: RPCServer;
  dataPath: string;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export const startTestServer = async (
  rpc: Partial<RPCConfig> = {},
  engine: 'uws' | 'node' = 'uws',
): Promise<TestServer> => {
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

export const rpc = (method: string, params?: unknown, id: number | string | null = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });

/** POST /rpc over a raw socket, the body written in pieces cut at the given byte offsets, each after a pause: the server reads it in as many chunks. */
export const postInPieces = async (port: number, body: string, cuts: number[]): Promise<unknown> => {
  const bytes = Buffer.from(body);
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
  );
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    socket.write(bytes.subarray(from, cut));
    from = cut;
    await sleep(20);
  }
  await closed;
  const response = Buffer.concat(received);
  const headerEnd = response.indexOf('\r\n\r\n');
  let answer = response.subarray(headerEnd + 4);
  if (/^transfer-encoding: chunked$/im.test(response.subarray(0, headerEnd).toString())) {
    // node:http answers without a length: size-prefixed chunks up to one of size zero
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = answer.indexOf('\r\n', at);
      const size = parseInt(answer.subarray(at, lineEnd).toString(), 16);
      if (size === 0) break;
      parts.push(answer.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    answer = Buffer.concat(parts);
  }
  return JSON.parse(answer.toString('utf8'));
};

export type AnswerError = { form: 'jsonrpc'; code: number; message: string } | { form: 'application'; message: string };

/**
 * The error an answer carries: a JSON-RPC error (the engine's methods), or the application's error answered as the
 * result `{ error: { message } }`, as Klayr Core's ABI answers the modules', the plugins' and unknown methods.
 */
export const answerError = (answer: {
  result?: unknown;
  error?: { code: number; message: string };
}): AnswerError | undefined => {
  if (answer.error !== undefined) return { form: 'jsonrpc', code: answer.error.code, message: answer.error.message };
  const { result } = answer;
  if (typeof result !== 'object' || result === null || !('error' in result)) return undefined;
  const { error } = result as { error: { message?: unknown } };
  return typeof error?.message === 'string' ? { form: 'application', message: error.message } : undefined;
};

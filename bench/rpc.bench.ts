import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { EndpointRegistry } from '../src/rpc/registry.js';
import { RPCServer } from '../src/rpc/server.js';
import { RPCMetrics } from '../src/rpc/metrics.js';
import { loadUWS } from '../src/rpc/server_uws.js';
import { klayrChain } from './klayr.js';
import { tempDataPath } from '../test/helpers/state.js';
import { printAndSave } from './harness.js';
import type { ComparisonResult } from './harness.js';

const run = promisify(execFile);
const loader = fileURLToPath(new URL('./load.js', import.meta.url));
const CONNECTIONS = 32;
const SECONDS = Number(process.env.KESTREL_BENCH_SECONDS ?? 5);
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'fee_getMinFeePerByte', params: {} });
const RESULT = { minFeePerByte: 1000 };
const silent = { info: () => undefined, debug: () => undefined, error: () => undefined, warn: () => undefined, trace: () => undefined, fatal: () => undefined };

interface Load {
  loader: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Rounds per protocol; each server's median round is reported. */
const ROUNDS = Number(process.env.KESTREL_BENCH_ROUNDS ?? 5);

const median = (loads: Load[]): Load => [...loads].sort((a, b) => a.rps - b.rps)[Math.floor(loads.length / 2)]!;

/** Where cores allow, several loader processes split the connections so the loader is not the bottleneck. */
const LOADERS = Number(process.env.KESTREL_BENCH_LOADERS ?? 1);

const load = async (kind: 'http' | 'ws', url: string): Promise<Load> => {
  const runs = await Promise.all(
    Array.from({ length: LOADERS }, async () => {
      const { stdout } = await run(process.execPath, [loader, kind, url, String(CONNECTIONS / LOADERS), String(SECONDS), BODY], { maxBuffer: 1 << 20 });
      return JSON.parse(stdout) as Load;
    }),
  );
  return {
    loader: runs[0]!.loader,
    requests: runs.reduce((s, r) => s + r.requests, 0),
    rps: runs.reduce((s, r) => s + r.rps, 0),
    p50: runs.reduce((s, r) => s + r.p50, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
  };
};

const startKestrel = async (): Promise<RPCServer> => {
  const registry = new EndpointRegistry();
  registry.register('fee_getMinFeePerByte', { handler: () => RESULT });
  // with request metrics, as the node runs it
  const server = new RPCServer({ rpc: { modes: ['http', 'ws'], host: '127.0.0.1', port: 0, allowedMethods: ['*'] }, dataPath: tempDataPath(), registry, logger: pino({ level: 'silent' }), engine: 'uws', metrics: new RPCMetrics() });
  await server.start();
  return server;
};

/** klayr-framework's own engine RPC server (devDependency), same endpoint. */
const startKlayr = async (port: number): Promise<{ stop(): void }> => {
  void klayrChain; // loads the @klayr packages with the native-db stub first
  const { RPCServer: KlayrRPCServer } = createRequire(import.meta.url)('klayr-framework/dist-node/engine/rpc/rpc_server') as { RPCServer: new (d: string, c: unknown) => { init(o: unknown): void; registerEndpoint(n: string, m: string, h: () => unknown): void; start(): Promise<void>; stop(): void } };
  const server = new KlayrRPCServer(tempDataPath(), { modes: ['http', 'ws'], host: '127.0.0.1', port, allowedMethods: ['*'] });
  server.init({ logger: silent, chainID: Buffer.from('04000000', 'hex') });
  server.registerEndpoint('fee', 'getMinFeePerByte', async () => RESULT);
  await server.start();
  await new Promise((r) => setTimeout(r, 200));
  return server;
};

/**
 * Bare uWebSockets.js serving the same endpoint with nothing but what any JSON-RPC answer needs:
 * the body read, parsed, and the answer built around the request's id. `fixed` is the floor
 * below that: one prebuilt response whatever the request (its body never read, its id ignored).
 */
const startBareUWS = async (port: number, fixed: boolean): Promise<() => void> => {
  const uws = loadUWS()!;
  const result = JSON.stringify(RESULT);
  const prebuilt = `{"jsonrpc":"2.0","id":1,"result":${result}}`;
  const answer = (body: ArrayBuffer): string => (fixed ? prebuilt : `{"jsonrpc":"2.0","id":${JSON.stringify((JSON.parse(Buffer.from(body).toString('utf8')) as { id: unknown }).id)},"result":${result}}`);
  const app = uws
    .App()
    .post('/rpc', (res) => {
      res.onAborted(() => undefined);
      res.onData((chunk, isLast) => {
        if (!isLast) return;
        const text = answer(chunk);
        res.cork(() => res.writeHeader('Content-Type', 'application/json').end(text));
      });
    })
    .ws('/rpc-ws', { message: (ws, message) => void ws.send(answer(message)) });
  const token = await new Promise<unknown>((resolve) => app.listen('127.0.0.1', port, resolve));
  return () => uws.us_listen_socket_close(token as never);
};

const row = (name: string, baseline: string, ours: Load, base: Load, goal?: number): ComparisonResult & { loader: string; oursP50: number; oursP99: number; baselineP50: number; baselineP99: number } => ({
  name,
  loader: ours.loader,
  baseline,
  oursOpsPerSec: Math.round(ours.rps),
  baselineOpsPerSec: Math.round(base.rps),
  ratio: Number((ours.rps / base.rps).toFixed(2)),
  ...(goal !== undefined ? { goal, meetsGoal: ours.rps / base.rps >= goal } : {}),
  oursP50: ours.p50,
  oursP99: ours.p99,
  baselineP50: base.p50,
  baselineP99: base.p99,
});

export const rpcBench = async () => {
  const kestrel = await startKestrel();
  const klayr = await startKlayr(kestrel.port! + 1);
  const stopBare = await startBareUWS(kestrel.port! + 2, false);
  const stopFixed = await startBareUWS(kestrel.port! + 3, true);
  const url = (port: number, ws: boolean) => (ws ? `ws://127.0.0.1:${port}/rpc-ws` : `http://127.0.0.1:${port}/rpc`);
  try {
    const results = [];
    for (const ws of [false, true]) {
      const kind = ws ? 'ws' : 'http';
      // the machine drifts over a run: each round loads the three servers in a rotated order, and each server's median round counts
      const servers = 4;
      const runs: Load[][] = Array.from({ length: servers }, () => []);
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < servers; i++) {
          const server = (round + i) % servers;
          runs[server]!.push(await load(kind, url(kestrel.port! + server, ws)));
        }
      }
      const [ours, theirs, bare, fixed] = runs.map(median) as [Load, Load, Load, Load];
      const name = `${kind.toUpperCase()} fee_getMinFeePerByte, ${CONNECTIONS} connections`;
      results.push(row(name, 'klayr-framework RPC server', ours, theirs, 3));
      results.push(row(name, 'bare uWebSockets.js JSON-RPC handler (reads, parses, answers with the id)', ours, bare, 0.8));
      results.push(row(name, 'bare uWebSockets.js fixed response (body unread, id ignored)', ours, fixed));
    }
    printAndSave('rpc', results, { connections: CONNECTIONS, seconds: SECONDS, loaders: LOADERS, rounds: ROUNDS });
    console.table(results.map((r) => ({ benchmark: r.name, baseline: r.baseline, loader: r.loader, 'kestrel p50/p99 ms': `${r.oursP50.toFixed(2)}/${r.oursP99.toFixed(2)}`, 'baseline p50/p99 ms': `${r.baselineP50.toFixed(2)}/${r.baselineP99.toFixed(2)}` })));
  } finally {
    await kestrel.stop();
    klayr.stop();
    stopBare();
    stopFixed();
  }
};

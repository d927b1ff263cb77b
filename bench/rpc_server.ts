// One RPC server of the RPC benches, in a process of its own (each server gets its own event loop
// and the OS shares a core between servers fairly only between processes):
//   node rpc_server.js <one of ALL_SERVER_KINDS> <port> [account JSON, for klayr-token]
// prints "listening" once it accepts connections; stops on SIGTERM.
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { klayr32ToAddress } from '../src/lib/crypto/address.js';
import { required } from '../src/lib/required.js';
import { feeConfig } from '../src/modules/fee/config.js';
import { feeEndpoints } from '../src/modules/fee/endpoint.js';
import { RPCMetrics } from '../src/rpc/metrics.js';
import { EndpointRegistry } from '../src/rpc/registry.js';
import { RPCServer } from '../src/rpc/server.js';
import { loadUWS } from '../src/rpc/server_uws.js';
import { MemoryStateReadWriter } from '../test/helpers/klayr_genesis.js';
import { tempDataPath } from '../test/helpers/state.js';
import { klayrChain } from './klayr.js';
import type { AnyServerKind, BalanceAccount } from './rpc_server_kinds.js';
import { ALL_SERVER_KINDS } from './rpc_server_kinds.js';

const RESULT = { minFeePerByte: 1000 };

const silent = {
  info: () => undefined,
  debug: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
};

/**
 * The node's own fee_getMinFeePerByte (declared constant: its answer is serialized once); `perCall`
 * is the same handler without that declaration, run and serialized on every request.
 */
const startKestrel = async (port: number, perCall: boolean): Promise<() => Promise<void>> => {
  const registry = new EndpointRegistry();
  const endpoint = feeEndpoints(
    feeConfig(Buffer.from('04000000', 'hex'), { minFeePerByte: RESULT.minFeePerByte }),
  ).getMinFeePerByte;
  registry.register('fee_getMinFeePerByte', perCall ? { ...endpoint, constant: false } : endpoint);
  // with request metrics, as the node runs it
  const server = new RPCServer({
    rpc: { modes: ['http', 'ws'], host: '127.0.0.1', port, allowedMethods: ['*'] },
    dataPath: tempDataPath(),
    registry,
    logger: pino({ level: 'silent' }),
    engine: 'uws',
    metrics: new RPCMetrics(),
  });
  await server.start();
  return () => server.stop();
};

/** klayr-framework's own engine RPC server (devDependency), same endpoint. */
const startKlayr = async (port: number): Promise<() => void> => {
  void klayrChain; // loads the @klayr packages with the native-db stub first
  const { RPCServer: KlayrRPCServer } = createRequire(import.meta.url)(
    'klayr-framework/dist-node/engine/rpc/rpc_server',
  ) as {
    RPCServer: new (
      d: string,
      c: unknown,
    ) => {
      init(o: unknown): void;
      registerEndpoint(n: string, m: string, h: () => unknown): void;
      start(): Promise<void>;
      stop(): void;
    };
  };
  const server = new KlayrRPCServer(tempDataPath(), {
    modes: ['http', 'ws'],
    host: '127.0.0.1',
    port,
    allowedMethods: ['*'],
  });
  server.init({ logger: silent, chainID: Buffer.from('04000000', 'hex') });
  server.registerEndpoint('fee', 'getMinFeePerByte', async () => RESULT);
  await server.start();
  await new Promise((r) => setTimeout(r, 200));
  return () => server.stop();
};

type KlayrRPCServerClass = new (
  dataPath: string,
  config: unknown,
) => {
  init(o: unknown): void;
  registerEndpoint(namespace: string, method: string, handler: (ctx: { params: unknown }) => unknown): void;
  start(): Promise<void>;
  stop(): void;
};

interface KlayrTokenModule {
  stores: {
    get(store: unknown): {
      getKey(address: Buffer, tokenID: Buffer): Buffer;
      set(ctx: unknown, key: Buffer, value: unknown): Promise<void>;
    };
  };
  endpoint: { getBalance(ctx: unknown): Promise<unknown> };
}

/**
 * klayr-framework's engine RPC server answering token_getBalance with klayr-framework's own
 * TokenEndpoint over an in-memory state store (test/helpers' Map-backed store under Klayr's
 * PrefixedStateReadWriter, as the differential tests run it) holding the one account asked for.
 */
const startKlayrToken = async (port: number, account: BalanceAccount): Promise<() => void> => {
  void klayrChain; // loads the @klayr packages with the native-db stub first
  const require = createRequire(import.meta.url);
  const fw = (path: string): Record<string, unknown> => require(`klayr-framework/dist-node/${path}`);
  const TokenModule = fw('modules/token').TokenModule as new () => KlayrTokenModule;
  const PrefixedStateReadWriter = fw('state_machine/prefixed_state_read_writer').PrefixedStateReadWriter as new (
    db: unknown,
  ) => { getStore(p: Buffer, s: Buffer): unknown };
  const KlayrRPCServer = fw('engine/rpc/rpc_server').RPCServer as KlayrRPCServerClass;
  const token = new TokenModule();
  const stateStore = new PrefixedStateReadWriter(new MemoryStateReadWriter());
  const context = { getStore: (p: Buffer, s: Buffer) => stateStore.getStore(p, s) };
  const users = token.stores.get(fw('modules/token/stores/user').UserStore);
  await users.set(context, users.getKey(klayr32ToAddress(account.address), Buffer.from(account.tokenID, 'hex')), {
    availableBalance: BigInt(account.availableBalance),
    lockedBalances: account.lockedBalances.map((b) => ({ module: b.module, amount: BigInt(b.amount) })),
  });
  const server = new KlayrRPCServer(tempDataPath(), {
    modes: ['http', 'ws'],
    host: '127.0.0.1',
    port,
    allowedMethods: ['*'],
  });
  server.init({ logger: silent, chainID: Buffer.from('04000000', 'hex') });
  server.registerEndpoint('token', 'getBalance', (ctx) =>
    token.endpoint.getBalance({ ...ctx, ...context, getImmutableMethodContext: () => context }),
  );
  await server.start();
  await new Promise((r) => setTimeout(r, 200));
  return () => server.stop();
};

/**
 * Bare uWebSockets.js serving the same endpoint with nothing but what any JSON-RPC answer needs:
 * the body read, parsed, and the answer built around the request's id. `fixed` is the floor
 * below that: one prebuilt response whatever the request (its body never read, its id ignored).
 */
const startBareUWS = async (port: number, fixed: boolean): Promise<() => void> => {
  const uws = required(loadUWS(), 'The uWebSockets.js binary for this platform');
  const result = JSON.stringify(RESULT);
  const prebuilt = `{"jsonrpc":"2.0","id":1,"result":${result}}`;
  const answer = (body: ArrayBuffer): string =>
    fixed
      ? prebuilt
      : `{"jsonrpc":"2.0","id":${JSON.stringify((JSON.parse(Buffer.from(body).toString('utf8')) as { id: unknown }).id)},"result":${result}}`;
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
  if (token === false) throw new Error(`could not listen on ${port}`);
  return () => uws.us_listen_socket_close(token as never);
};

const start: Record<AnyServerKind, (port: number, arg?: string) => Promise<() => unknown>> = {
  kestrel: (port) => startKestrel(port, false),
  'kestrel-per-call': (port) => startKestrel(port, true),
  klayr: startKlayr,
  bare: (port) => startBareUWS(port, false),
  fixed: (port) => startBareUWS(port, true),
  'klayr-token': (port, account) => startKlayrToken(port, JSON.parse(account ?? 'null') as BalanceAccount),
};

const [kind, port, arg] = process.argv.slice(2) as [AnyServerKind, string, string | undefined];
if (!ALL_SERVER_KINDS.includes(kind) || !(Number(port) > 0)) {
  console.error(`usage: node rpc_server.js ${ALL_SERVER_KINDS.join('|')} <port> [account JSON for klayr-token]`);
  process.exit(2);
}
const stop = await start[kind](Number(port), arg);
process.once('SIGTERM', () => {
  void Promise.resolve(stop()).then(() => process.exit(0));
});
process.stdout.write('listening\n');

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { KestrelNode } from '../../src/main/node.js';
import type { DevValidatorKey } from './devnet.js';
import { devnetFile, devnetPassphrase, devValidators } from './devnet.js';
import { klayrCrypto } from './klayr.js';
import { FAST_POS_WINDOWS } from './node_process.js';
import { freePort } from './ports.js';
import { answerError } from './rpc.js';
import { tempDataPath } from './state.js';

const require = createRequire(import.meta.url);
const apiClient: any = require('@klayr/api-client');
export type KlayrClient = any;

export const TOKEN_ID = '0400000000000000';

/** The devnet's 51 genesis validators (pos genesisData.initValidators). */
const devnetGenesisValidators = (): DevValidatorKey[] => {
  const assets = require(devnetFile('genesis_assets.json')) as {
    assets: { module: string; data: { genesisData: { initValidators: string[] } } }[];
  };
  const pos = assets.assets.find((a) => a.module === 'pos');
  const init = pos?.data.genesisData.initValidators ?? [];
  const byAddress = new Map(devValidators().map((k) => [k.address, k]));
  return init.flatMap((a) => byAddress.get(a) ?? []);
};

/** Genesis validators (the devnet's 51 unless given) split in two by position. */
export const splitGenesisValidators = (
  genesisValidators: readonly DevValidatorKey[] = devnetGenesisValidators(),
): { even: DevValidatorKey[]; odd: DevValidatorKey[] } => ({
  even: genesisValidators.filter((_, i) => i % 2 === 0),
  odd: genesisValidators.filter((_, i) => i % 2 === 1),
});

/** A keys file in dev-validators.json's format. */
export const keysFile = (keys: readonly DevValidatorKey[]): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-keys-')), 'keys.json');
  writeFileSync(file, JSON.stringify({ keys }));
  return file;
};

/**
 * A Kestrel devnet node in this process: 3-second blocks, P2P on `host`, the given keys (none: a
 * follower), the devnet's genesis block or the `genesis` file given.
 */
export const kestrelPeer = async (options: {
  host: string;
  keys: readonly DevValidatorKey[];
  seeds?: { ip: string; port: number }[];
  genesis?: string;
}): Promise<{ node: KestrelNode; config: ApplicationConfig; p2pPort: number; rpcPort: number }> => {
  const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
  if (options.genesis !== undefined) config.genesis.block = { fromFile: options.genesis };
  config.genesis.blockTime = 3;
  config.modules.pos = { ...config.modules.pos, ...FAST_POS_WINDOWS };
  config.rpc.modes = ['ipc', 'ws', 'http'];
  config.rpc.allowedMethods = ['*'];
  config.generator = { keys: { fromFile: keysFile(options.keys) } };
  const p2pPort = await freePort();
  config.network = { ...config.network, host: options.host, port: p2pPort, seedPeers: options.seeds ?? [] };
  const node = new KestrelNode(config, pino({ level: process.env.KESTREL_TEST_LOG ?? 'silent' }));
  await node.start();
  return { node, config, p2pPort, rpcPort: config.rpc.port };
};

/** A JSON-RPC call over HTTP that throws the node's error (a JSON-RPC error, or a module's answered as the result). */
export const call = async <T = Record<string, unknown>>(port: number, method: string, params?: unknown): Promise<T> => {
  const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params !== undefined ? { params } : {}) }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  const error = answerError(body);
  if (error !== undefined) throw new Error(`${method}@${port}: ${error.message}`);
  return body.result as T;
};

/** Polls `check` every 500 ms until it returns a value, or throws after `timeoutMs` with `what`. */
export const waitFor = async <T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
  everyMs = 500,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}`,
      );
    await sleep(everyMs);
  }
};

export const nodeInfo = (port: number) =>
  call<{ height: number; finalizedHeight: number; lastBlockID: string }>(port, 'system_getNodeInfo');

export const blockIDAt = async (port: number, height: number): Promise<string> =>
  (await call<{ header: { id: string } }>(port, 'chain_getBlockByHeight', { height })).header.id;

/** The devnet's funded account (the first genesis validator), as @klayr/api-client signs with it. */
export const fundedKey = async (): Promise<Buffer> =>
  klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(devnetPassphrase(), "m/44'/134'/0'");

export const wsClient = (port: number): Promise<KlayrClient> =>
  apiClient.createWSClient(`ws://127.0.0.1:${port}/rpc-ws`);

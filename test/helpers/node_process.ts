import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliPath } from './cli.js';
import { localP2PArgs } from './local_p2p.js';

/** A `kestrel start` in a child process, its stderr (the logs) kept. */
export interface NodeProcess {
  child: ChildProcess;
  port: number;
  stderr(): string;
  /** SIGTERM (a clean stop), or the given signal; resolves with the exit code and signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Klayr's PoS windows at 3-second blocks: at least 5 days of blocks (its defaults are meant for 10-second blocks). */
export const FAST_POS_WINDOWS = { failSafeInactiveWindow: 144000 };

/** A config file for a faster devnet: 3-second blocks, the shortest Klayr's config schema allows. */
export const fastDevnetConfig = (): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-fast-')), 'config.json');
  writeFileSync(file, JSON.stringify({ genesis: { blockTime: 3 }, modules: { pos: FAST_POS_WINDOWS } }));
  return file;
};

/**
 * A config file whose genesis block file does not exist: a start with it checks the port, saves
 * (or overwrites) the config under the data path, then fails on reading the genesis block, before
 * any chain work.
 */
export const missingGenesisConfig = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'kestrel-no-genesis-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ genesis: { block: { fromFile: join(dir, 'absent.blob') } } }));
  return file;
};

/** `kestrel start` in a child process, its P2P server on 127.0.0.1 and a port of its own (localP2PArgs). */
export const startNodeProcess = async (dataPath: string, port: number, ...args: string[]): Promise<NodeProcess> => {
  const startArgs = await localP2PArgs(['start', '-d', dataPath, '--api-port', String(port), ...args]);
  const child = spawn(process.execPath, [cliPath, ...startArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    port,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code, sig] = await exited;
      return { code, signal: sig };
    },
  };
};

/** A JSON-RPC call over HTTP; undefined while nothing answers on the port. */
export const httpRPC = async (port: number, method: string, params?: unknown): Promise<unknown> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params !== undefined ? { params } : {}) }),
    });
    return ((await res.json()) as { result?: unknown }).result;
  } catch {
    return undefined;
  }
};

export const nodeHeight = async (port: number): Promise<number | undefined> =>
  ((await httpRPC(port, 'system_getNodeInfo')) as { height?: number } | undefined)?.height;

/** Polls until `check` holds; fails with `what` after `timeoutMs`. */
export const waitUntil = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(200);
  }
};

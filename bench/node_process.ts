// A Kestrel node as an operator runs it: the CLI (`kestrel start`) in a process of its own, on a
// data path of the bench's, with a -c overlay that opens JSON-RPC over HTTP on a free 127.0.0.1 port.

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/ports.js';

/** This build's CLI, or another build's (KESTREL_BENCH_CLI: a before/after comparison on one machine). */
export const CLI = process.env.KESTREL_BENCH_CLI ?? fileURLToPath(new URL('../src/main/cli.js', import.meta.url));

export interface NodeProcessOptions {
  /** A network preset (`-n`): devnet, testnet or mainnet. */
  network: string;
  dataPath: string;
  port: number;
  /** rpc.allowedMethods of the overlay (the presets of live networks allow none). */
  allowedMethods: readonly string[];
  /** Command and arguments that run `node <args>` (e.g. under taskset); default: node itself. */
  wrap?: (command: string, args: string[]) => [string, string[]];
  /** Give up after this long without an answer. */
  timeoutMs?: number;
  /** -l (default warn). */
  logLevel?: string;
}

export interface RunningNode {
  child: ChildProcess;
  /** Seconds from spawn to the first answer of system_getNodeInfo. */
  secondsToFirstAnswer: number;
  /** CPU seconds the node's process had used by then (all its threads; undefined without /proc). */
  cpuSecondsToFirstAnswer: number | undefined;
  /** The answer's height. */
  height: number;
  /** The last 64 kB of what the node logged (JSON lines). */
  log: () => string;
  stop: () => Promise<void>;
}

/** CPU seconds (user + system, all threads) a process has used, from /proc (Linux); undefined elsewhere. */
export const cpuSecondsOf = (pid: number | undefined): number | undefined =>
  pid === undefined ? undefined : cpuSecondsIn(`/proc/${pid}/stat`);

/** CPU seconds a process's main thread alone has used (its own task entry in /proc); undefined elsewhere. */
export const mainThreadCpuSecondsOf = (pid: number): number | undefined =>
  cpuSecondsIn(`/proc/${pid}/task/${pid}/stat`);

/**
 * CPU seconds each thread of a process has used, by thread ID (Linux; empty elsewhere). Thread IDs grow in
 * creation order: Node's main thread, V8's platform threads, libuv's pool (where lmdb-js writes), then workers.
 */
export const threadCpuSecondsOf = (pid: number): Map<number, number> => {
  const threads = new Map<number, number>();
  const dir = `/proc/${pid}/task`;
  if (!existsSync(dir)) return threads;
  for (const tid of readdirSync(dir)) {
    try {
      const seconds = cpuSecondsIn(`${dir}/${tid}/stat`);
      if (seconds !== undefined) threads.set(Number(tid), seconds);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads;
};

const cpuSecondsIn = (file: string): number | undefined => {
  if (!existsSync(file)) return undefined;
  const stat = readFileSync(file, 'utf8');
  // the fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** A fresh data path under the temp folder (removed by `removeDataPath`). */
export const freshDataPath = (): string => mkdtempSync(join(tmpdir(), 'kestrel-bench-node-'));
export const removeDataPath = (dataPath: string): void => rmSync(dataPath, { recursive: true, force: true });

/** One JSON-RPC call over HTTP; undefined while nothing listens. */
export const callRPC = async (port: number, method: string, params: object = {}): Promise<unknown> => {
  const response = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
};

/**
 * Spawns `kestrel start -n <network> -d <dataPath> -c <overlay>` and polls system_getNodeInfo every
 * 5 ms until it answers. The overlay keeps the saved preset otherwise, but for its P2P server: on
 * 127.0.0.1 at a free port, with no seed peers (a live preset's seeds are never dialled from a
 * bench). Logs go nowhere but the last lines are kept for an error.
 */
export const startNodeProcess = async (o: NodeProcessOptions): Promise<RunningNode> => {
  const overlay = join(o.dataPath, 'bench-overlay.json');
  writeFileSync(
    overlay,
    JSON.stringify({
      rpc: { modes: ['http'], host: '127.0.0.1', port: o.port, allowedMethods: o.allowedMethods },
      network: { host: '127.0.0.1', port: await freePort(), seedPeers: [] },
    }),
  );
  const args = [
    CLI,
    'start',
    '-n',
    o.network,
    '-d',
    o.dataPath,
    '-c',
    overlay,
    '--log-format',
    'json',
    '-l',
    o.logLevel ?? 'warn',
  ];
  const [command, argv] = o.wrap?.(process.execPath, args) ?? [process.execPath, args];
  const started = performance.now();
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-65536);
  });
  let exit: number | null | undefined;
  child.once('exit', (code) => {
    exit = code;
  });
  const stop = async (): Promise<void> => {
    if (exit !== undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = started + (o.timeoutMs ?? 120_000);
  for (;;) {
    if (exit !== undefined) throw new Error(`kestrel start -n ${o.network} exited with ${exit}:\n${log.slice(-4000)}`);
    if (performance.now() > deadline) {
      await stop();
      throw new Error(
        `kestrel start -n ${o.network} did not answer within ${o.timeoutMs ?? 120_000} ms:\n${log.slice(-4000)}`,
      );
    }
    const info = await callRPC(o.port, 'system_getNodeInfo').catch(() => undefined);
    if (info !== undefined) {
      const secondsToFirstAnswer = (performance.now() - started) / 1000;
      const cpuSecondsToFirstAnswer = cpuSecondsOf(child.pid);
      return {
        cpuSecondsToFirstAnswer,
        child,
        secondsToFirstAnswer,
        height: (info as { height: number }).height,
        log: () => log,
        stop,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { stopChild } from './stop_child.js';

/** The real Klayr Core node of ../shared/tools/klayr-node (klayr-framework 0.12.3 with @klayr/p2p), as a test peer. */
export const KLAYR_NODE_SCRIPT = resolve('../shared/tools/klayr-node/run-node.cjs');

export interface KlayrNodeOptions {
  host: string;
  port: number;
  rpcPort: number;
  generate?: boolean;
  /** A keys file in dev-validators.json's format (only with generate). */
  keys?: string;
  seeds?: string[];
  whitelist?: string[];
  blockTime?: number;
  logLevel?: string;
  /** A Klayr Core config file (the devnet's when left out); the options above are laid over it. */
  config?: string;
  /** A genesis block blob (the devnet's when left out). */
  genesis?: string;
}

export interface KlayrBlockLine {
  height: number;
  id: string;
  generator: string;
  txs: number;
  finalized: number;
}

export interface KlayrNode {
  child: ChildProcess;
  lines: string[];
  blocks: KlayrBlockLine[];
  rpcPort: number;
  /** Resolves with the first stdout line matching `pattern`, or rejects after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  stop(): Promise<void>;
}

const BLOCK_ADDED = /block added height=(\d+) id=([0-9a-f]+) generator=(\S+) txs=(\d+) finalized=(\d+)/;

/** Starts a Klayr Core node and resolves once it listens (its `started in` line). */
export const startKlayrNode = async (options: KlayrNodeOptions, startTimeoutMs = 60_000): Promise<KlayrNode> => {
  const args = [
    KLAYR_NODE_SCRIPT,
    '--host',
    options.host,
    '--port',
    String(options.port),
    '--rpc-port',
    String(options.rpcPort),
    '--rpc-modes',
    'ws,http',
    '--block-time',
    String(options.blockTime ?? 3),
    '--log-level',
    options.logLevel ?? 'warn',
  ];
  if (options.config !== undefined) args.push('--config', options.config);
  if (options.genesis !== undefined) args.push('--genesis', options.genesis);
  if (options.generate === true) args.push('--generate');
  if (options.keys !== undefined) args.push('--keys', options.keys);
  for (const seed of options.seeds ?? []) args.push('--seed', seed);
  if (options.whitelist !== undefined && options.whitelist.length > 0)
    args.push('--whitelist', options.whitelist.join(','));
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KLAYR_NODE_STATUS_MS: '5000' },
  });
  const lines: string[] = [];
  const blocks: KlayrBlockLine[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const onLine = (line: string): void => {
    lines.push(line);
    const block = BLOCK_ADDED.exec(line);
    if (block !== null)
      blocks.push({
        height: Number(block[1]),
        id: block[2] ?? '',
        generator: block[3] ?? '',
        txs: Number(block[4]),
        finalized: Number(block[5]),
      });
    for (const w of [...waiters])
      if (w.pattern.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
  };
  if (child.stdout === null || child.stderr === null) throw new Error('klayr-node has no output pipes');
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', (line) => lines.push(`stderr: ${line}`));
  const exited = once(child, 'exit');
  const waitForLine = (pattern: RegExp, timeoutMs: number): Promise<string> => {
    const seen = lines.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolveLine, reject) => {
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(
          new Error(`klayr-node: no line matching ${pattern} within ${timeoutMs} ms:\n${lines.slice(-30).join('\n')}`),
        );
      }, timeoutMs);
      const waiter = {
        pattern,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolveLine(line);
        },
      };
      waiters.push(waiter);
    });
  };
  const started = waitForLine(/\] started in \d+ms/, startTimeoutMs);
  const failed = exited.then(() => {
    throw new Error(`klayr-node exited before it started:\n${lines.join('\n')}`);
  });
  await Promise.race([started, failed]);
  failed.catch(() => undefined);
  return {
    child,
    lines,
    blocks,
    rpcPort: options.rpcPort,
    waitForLine,
    stop: () => stopChild(child, exited),
  };
};

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from './cli.js';
import { FAST_POS_WINDOWS } from './node_process.js';

/** A `kestrel start` child process with its JSON log lines (stderr). */
export interface KestrelChild {
  child: ChildProcess;
  lines: string[];
  exited: Promise<unknown>;
}

/** Called with each log line of a child as it arrives. */
export type OnLogLine = (line: string, child: ChildProcess) => void;

export interface KestrelChildNetwork {
  host: string;
  port: number;
  seedPeers: { ip: string; port: number }[];
}

/**
 * `kestrel start` with 3-second blocks (Klayr's shortest), RPC over HTTP on `rpcPort`, P2P on host:port, the given
 * keys file and seeds; `genesisFile` replaces the embedded devnet's genesis block. `onLine` sees each log line as it
 * arrives (the node writes its log asynchronously: a line may arrive some milliseconds after what it tells).
 */
export const startKestrelChild = (options: {
  dataPath: string;
  rpcPort: number;
  network: KestrelChildNetwork;
  keys: string;
  genesisFile?: string;
  /** system.logLevel: info when left out. */
  logLevel?: 'debug' | 'info';
  onLine?: OnLogLine;
}): KestrelChild => {
  const config = join(mkdtempSync(join(tmpdir(), 'kestrel-child-')), 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      ...(options.logLevel !== undefined ? { system: { logLevel: options.logLevel } } : {}),
      genesis: {
        blockTime: 3,
        ...(options.genesisFile !== undefined ? { block: { fromFile: options.genesisFile } } : {}),
      },
      modules: { pos: FAST_POS_WINDOWS },
      rpc: { modes: ['http'], host: '127.0.0.1', port: options.rpcPort, allowedMethods: ['*'] },
      network: options.network,
      generator: { keys: { fromFile: options.keys } },
    }),
  );
  const child = spawn(
    process.execPath,
    [cliPath, 'start', '-d', options.dataPath, '-c', config, '--log-format', 'json'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines: string[] = [];
  const exited = once(child, 'exit');
  child.stderr?.setEncoding('utf8');
  let partial = '';
  child.stderr?.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      options.onLine?.(line, child);
    }
  });
  return { child, lines, exited };
};

/** SIGTERM to each child still running, and its exit awaited. */
export const stopKestrelChildren = async (children: readonly (KestrelChild | undefined)[]): Promise<void> => {
  for (const node of children) {
    if (node !== undefined && node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  }
};

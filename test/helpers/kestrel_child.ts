import type { ChildProcess } from 'node:child_process';
import type { KestrelProcess } from './kestrel_process.js';
import { spawnKestrel } from './kestrel_process.js';
import { FAST_POS_WINDOWS } from './node_process.js';

/** A `kestrel start` child process with its JSON log lines (stderr). */
export type KestrelChild = KestrelProcess;

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
}): KestrelChild =>
  spawnKestrel(
    options.dataPath,
    {
      ...(options.logLevel !== undefined ? { system: { logLevel: options.logLevel } } : {}),
      genesis: {
        blockTime: 3,
        ...(options.genesisFile !== undefined ? { block: { fromFile: options.genesisFile } } : {}),
      },
      modules: { pos: FAST_POS_WINDOWS },
      rpc: { modes: ['http'], host: '127.0.0.1', port: options.rpcPort, allowedMethods: ['*'] },
      network: options.network,
      generator: { keys: { fromFile: options.keys } },
    },
    options.onLine,
  );

/** SIGTERM to each child still running, and its exit awaited. */
export const stopKestrelChildren = async (children: readonly (KestrelChild | undefined)[]): Promise<void> => {
  for (const node of children) await node?.stop();
};

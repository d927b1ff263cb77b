import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../node_flags.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

/** The file a child node logs to (its stderr and stdout, appended). */
export const chainLogFile = (dataPath: string): string => join(dataPath, 'kestrel.log');

export interface ChainExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One node's `kestrel start`, a child process logging (JSON lines) to kestrel.log under its data path. */
export interface ChainProcess {
  /** How messages name the node: "mainchain node", "node 2". */
  name: string;
  dataPath: string;
  logFile: string;
  pid: number;
  /** Settles when the process has exited, however it ended. */
  exited: Promise<ChainExit>;
  /** `signal` (SIGINT or SIGTERM: either is the node's clean stop), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs: number, signal?: 'SIGINT' | 'SIGTERM'): Promise<ChainExit>;
  /** The log's last lines, to show why a node stopped. */
  logTail(lines: number): string;
}

/**
 * Starts a node on `dataPath` with its saved config (and `extraArgs`, such as `-c <overlay>`). The
 * child gets a process group of its own, so that a Ctrl-C in the terminal reaches only the
 * supervising command (`network:interop`, `network:local`), which stops each node with one signal
 * (a second one would kill a stopping node at once).
 */
export const startChainProcess = (name: string, dataPath: string, extraArgs: readonly string[]): ChainProcess => {
  const logFile = chainLogFile(dataPath);
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      process.execPath,
      [...NODE_FLAGS, CLI, 'start', '-d', dataPath, '--log-format', 'json', ...extraArgs],
      {
        stdio: ['ignore', log, log],
        detached: true,
      },
    );
  } finally {
    closeSync(log);
  }
  const { pid } = child;
  // no pid: the process could not be spawned at all (it never emits 'exit')
  if (pid === undefined) throw new Error(`Could not start the ${name}: ${process.execPath} ${CLI} did not run`);
  const exited = new Promise<ChainExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    name,
    dataPath,
    logFile,
    pid,
    exited,
    stop: async (graceMs, signal = 'SIGINT') => {
      if (running()) child.kill(signal);
      const timer = setTimeout(() => running() && child.kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    logTail: (lines) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'),
  };
};

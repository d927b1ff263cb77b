import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chainLogFile } from './layout.js';
import { required } from '../../lib/required.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

export interface ChainExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One chain's `kestrel start`, a child process logging (JSON lines) to kestrel.log under its data path. */
export interface ChainProcess {
  name: string;
  dataPath: string;
  logFile: string;
  pid: number;
  /** Settles when the process has exited, however it ended. */
  exited: Promise<ChainExit>;
  /** SIGINT (the node's clean stop), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs: number): Promise<ChainExit>;
  /** The log's last lines, to show why a node stopped. */
  logTail(lines: number): string;
}

/**
 * Starts a node on `dataPath` with its saved config. The child gets a process group of its own,
 * so that a Ctrl-C in the terminal reaches only `network:interop`, which stops each node with one
 * SIGINT (a second one would kill a stopping node at once).
 */
export const startChainProcess = (name: string, dataPath: string, extraArgs: readonly string[]): ChainProcess => {
  const logFile = chainLogFile(dataPath);
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [CLI, 'start', '-d', dataPath, '--log-format', 'json', ...extraArgs], {
      stdio: ['ignore', log, log],
      detached: true,
    });
  } finally {
    closeSync(log);
  }
  const exited = new Promise<ChainExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    name,
    dataPath,
    logFile,
    pid: required(child.pid, `The process ID of the ${name} node`),
    exited,
    stop: async (graceMs) => {
      if (running()) child.kill('SIGINT');
      const timer = setTimeout(() => running() && child.kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    logTail: (lines) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'),
  };
};

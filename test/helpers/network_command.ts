import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliPath } from './cli.js';

/** A `kestrel network:<name>` in a child process, its progress lines (stdout) and stderr kept. */
export interface NetworkCommandProcess {
  child: ChildProcess;
  output(): string;
  stderr(): string;
  /** Resolves with the first progress line matching `pattern`; rejects after `timeoutMs` or when the command exits first. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** SIGINT (the command's clean stop of its nodes) or `signal`; resolves with its exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export const startNetworkCommand = (command: string, ...args: string[]): NetworkCommandProcess => {
  const child = spawn(process.execPath, [cliPath, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    output: () => stdout,
    stderr: () => stderr,
    waitForLine: async (pattern, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = stdout.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) return line;
        if (done) throw new Error(`${command} exited before printing ${pattern}:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline)
          throw new Error(`${command} did not print ${pattern} within ${timeoutMs / 1000} s:\n${stdout}\n${stderr}`);
        await sleep(200);
      }
    },
    stop: async (signal = 'SIGINT') => {
      if (!done) child.kill(signal);
      const [code, sig] = await exited;
      return { code, signal: sig };
    },
  };
};

/** Whether a process with this pid still exists. */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of the nodes, from the command's "Starting … (pid …" lines. */
export const nodePids = (output: string): number[] => [...output.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliPath } from './cli.js';

/** A `kestrel start` child process, its JSON log lines (stderr) kept. */
export interface KestrelProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<unknown>;
  /** SIGTERM, waited for; nothing when it has already exited. */
  stop(): Promise<void>;
}

/**
 * `kestrel start -d dataPath` with `config` as its config file (network, rpc and generator keys included:
 * nothing is added), JSON logs; `onLine` sees each log line as it comes.
 */
export const spawnKestrel = (
  dataPath: string,
  config: Record<string, unknown>,
  onLine: (line: string, child: ChildProcess) => void = () => undefined,
): KestrelProcess => {
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-node-')), 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, [cliPath, 'start', '-d', dataPath, '-c', file, '--log-format', 'json'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  if (child.stderr !== null)
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      onLine(line, child);
    });
  const exited = once(child, 'exit');
  return {
    child,
    lines,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
};

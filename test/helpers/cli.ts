import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const cliPath = fileURLToPath(new URL('../../src/main/cli.js', import.meta.url));

/** Runs the CLI in a child process without blocking this process's event loop (a node under test may be serving it). */
export const runCLI = (...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  runCLIWith({}, ...args);

/**
 * runCLI with `input` written to the child's standard input, which then ends (without it stdin stays
 * open, as for runCLI), and `env` added to this process's environment.
 */
export const runCLIWith = (
  options: { input?: string; env?: Record<string, string> },
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...options.env } });
    if (options.input !== undefined) child.stdin.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

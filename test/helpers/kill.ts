import { spawn } from 'node:child_process';

/**
 * Starts a child script that prints `committed <height>` per committed block, kills it with
 * SIGKILL `delayMs` after its first commit (after it reports `afterHeight`, when given), and
 * resolves with the last height it reported.
 */
export const runAndKill = (
  script: string,
  args: readonly string[],
  delayMs: number,
  afterHeight = -1,
  onLine: (line: string) => void = () => undefined,
): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = -1;
    let buffered = '';
    let timer: NodeJS.Timeout | undefined;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        onLine(line);
        if (line.startsWith('committed ')) last = Number(line.split(' ')[1]);
      }
      if (last >= afterHeight) timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`${script} exited with ${code}: ${stderr}`));
    });
  });

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('../../bench/load.c', import.meta.url));

/**
 * The C load generator (bench/load.c), compiled with the machine's C compiler on first use and kept
 * in the temp folder under its source's hash; undefined where no compiler is found (the bench then
 * falls back to the Node.js loader in load.ts), and where KESTREL_BENCH_LOADER=node asks for that one.
 */
export const nativeLoader = (): string | undefined => {
  if (process.env.KESTREL_BENCH_LOADER === 'node' || !existsSync(SOURCE)) return undefined;
  const hash = createHash('sha256').update(readFileSync(SOURCE)).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'kestrel-bench');
  const binary = join(dir, `load-${hash}`);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  for (const compiler of [process.env.CC, 'cc', 'gcc', 'clang']) {
    if (compiler === undefined || compiler === '') continue;
    const built = spawnSync(compiler, ['-O2', '-o', binary, SOURCE], { encoding: 'utf8' });
    if (built.status === 0) return binary;
  }
  return undefined;
};

// Compiles native/sha256_ni.c and sha256_x16.c into build/kestrel_sha256.node with the machine's C compiler and Node's own
// headers (no node-gyp: two files, nothing else to link). Never fails the install: without a compiler or headers
// Kestrel hashes with its WebAssembly SHA-256 and says so at start.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = ['sha256_ni.c', 'sha256_x16.c'].map((file) => join(root, 'native', file));
const output = join(root, 'build', 'kestrel_sha256.node');
const headerDirs = [process.env.npm_config_nodedir, join(dirname(process.execPath), '..')]
  .filter((d) => d !== undefined && d !== '')
  .map((d) => join(d, 'include', 'node'));
const headers = headerDirs.find((d) => existsSync(join(d, 'node_api.h')));

const warn = (why) => {
  console.warn(`kestrel: native SHA-256 not built (${why}); the WebAssembly SHA-256 will be used`);
  process.exit(0);
};

if (process.arch !== 'x64') warn(`SHA-NI code is x86-64 only, this is ${process.arch}`);
if (headers === undefined) warn(`no node_api.h under ${headerDirs.join(' or ')}`);
mkdirSync(dirname(output), { recursive: true });
const flags = ['-shared', '-fPIC', '-O3', '-std=c11', '-Wall', '-Wextra', '-I', headers, '-o', output, ...sources];
const failures = [];
for (const compiler of [process.env.CC, 'cc', 'gcc', 'clang']) {
  if (compiler === undefined || compiler === '') continue;
  const built = spawnSync(compiler, flags, { encoding: 'utf8' });
  if (built.status === 0) {
    if (built.stderr.trim() !== '') console.warn(built.stderr.trim());
    process.exit(0);
  }
  failures.push(`${compiler}: ${built.error?.message ?? built.stderr.trim().split('\n').slice(0, 3).join(' ')}`);
}
warn(failures.join('; ') || 'no C compiler');

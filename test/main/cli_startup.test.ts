import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliPath } from '../helpers/cli.js';

/**
 * Start-up of the CLI: commands load what they run inside their actions, so `--version` and
 * `--help` load commander and the command descriptions only.
 */

const ROUNDS = 9;
const ATTEMPTS = 3;
const BOUND_MS = 150;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Wall time (ms) of `node ...args`, checked to exit 0. */
const startMs = (args: string[]): number => {
  const start = process.hrtime.bigint();
  const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  assert.equal(out.status, 0, out.stderr);
  return ms;
};

/**
 * Median over rounds of (time of `node cli ...args` - time of `node -e 0` in the same round):
 * the two run back to back in every round, so a machine busy with other tests slows both.
 */
const medianOverBaselineMs = (args: string[]): { over: number; baseline: number; cli: number } => {
  const baselines: number[] = [];
  const clis: number[] = [];
  const overs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const baseline = startMs(['-e', '0']);
    const cli = startMs([cliPath, ...args]);
    baselines.push(baseline);
    clis.push(cli);
    overs.push(cli - baseline);
  }
  return { over: median(overs), baseline: median(baselines), cli: median(clis) };
};

/**
 * A preload that records every module the process resolves (ESM resolve hook, run off-thread)
 * and every native addon it opens (`process.dlopen`, which every `.node` file goes through),
 * one line each, into the file named by KESTREL_LOAD_LOG.
 */
const RECORDER = `
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
const log = process.env.KESTREL_LOAD_LOG;
const hooks = ${JSON.stringify(`
import { appendFileSync } from 'node:fs';
let log;
export const initialize = (data) => { log = data.log; };
export const resolve = async (specifier, context, next) => {
  const resolved = await next(specifier, context);
  appendFileSync(log, 'resolve ' + resolved.url + '\\n');
  return resolved;
};
`)};
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { log } });
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  appendFileSync(log, 'dlopen ' + filename + '\\n');
  return dlopen.call(this, module, filename, ...rest);
};
`;

/** The modules and native addons `kestrel ...args` loads, as lines `resolve <url>` / `dlopen <file>`. */
const loadedBy = (...args: string[]): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'kestrel-load-'));
  const log = join(dir, 'loaded.log');
  try {
    spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(RECORDER)}`, cliPath, ...args],
      { encoding: 'utf8', env: { ...process.env, KESTREL_LOAD_LOG: log } },
    );
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const HEAVY =
  /node_modules\/(lmdb|uWebSockets\.js|@trufflesuite\/uws-js-unofficial|zeromq|@chainsafe\/blst|sodium-native|pino|piscina)\//;

describe('CLI start-up', () => {
  it(`--version and endpoint:invoke --help start within ${BOUND_MS} ms of a bare \`node -e 0\` (medians)`, () => {
    for (const args of [['--version'], ['endpoint:invoke', '--help']]) {
      // a spike of load from other tests gets another try; a command that loads the node (about 300 ms more) fails every one
      const attempts: string[] = [];
      let over = Infinity;
      for (let attempt = 0; attempt < ATTEMPTS && over >= BOUND_MS; attempt++) {
        const m = medianOverBaselineMs(args);
        over = m.over;
        attempts.push(
          `node -e 0: ${m.baseline.toFixed(0)} ms, kestrel ${args.join(' ')}: ${m.cli.toFixed(0)} ms, over: ${m.over.toFixed(0)} ms`,
        );
      }
      assert.ok(over < BOUND_MS, attempts.join('\n'));
    }
  });

  it('--version and --help load no storage, RPC server, IPC, BLS, sodium or logger module and open no native addon', () => {
    for (const args of [['--version'], ['endpoint:invoke', '--help'], ['start', '--help'], ['keys:create', '--help']]) {
      const loaded = loadedBy(...args);
      assert.ok(
        loaded.some((l) => l.includes('node_modules/commander/')),
        `the recorder saw commander load for ${args.join(' ')}`,
      );
      assert.deepEqual(
        loaded.filter((l) => HEAVY.test(l) || l.startsWith('dlopen ')),
        [],
        args.join(' '),
      );
    }
  });

  it('the recorder sees a heavy module when a command does load one (endpoint:invoke loads zeromq for IPC)', () => {
    const loaded = loadedBy('endpoint:invoke', 'system_getNodeInfo', '-d', join(tmpdir(), 'kestrel-no-node-here'));
    assert.ok(
      loaded.some((l) => l.startsWith('resolve ') && l.includes('node_modules/zeromq/')),
      'zeromq resolved',
    );
    assert.ok(
      loaded.some((l) => l.startsWith('dlopen ') && l.includes('zeromq')),
      'zeromq addon opened',
    );
    assert.ok(
      !loaded.some((l) => /node_modules\/(lmdb|@chainsafe\/blst)\//.test(l)),
      'endpoint:invoke loads no storage or BLS',
    );
  });
});

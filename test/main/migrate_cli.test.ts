import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { SyntheticSnapshot } from '../../bench/migration_snapshot.js';
import { writeSyntheticSnapshot } from '../../bench/migration_snapshot.js';
import { decodeBlock } from '../../src/lib/chain/block.js';
import type { ApplicationConfig } from '../../src/main/config/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { checkOutputPath, isWithin } from '../../src/main/migrate/output_path.js';
import { progressBar } from '../../src/main/migrate/progress_bar.js';
import { successorConfig } from '../../src/main/migrate/successor_config.js';
import { cliPath } from '../helpers/cli.js';
import { httpRPC, waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';

const HEIGHT = 1030;
const temp = (): string => mkdtempSync(join(tmpdir(), 'kestrel-migrate-cli-'));

const run = (
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

const configWithBackupHeight = (height: number): string => {
  const file = join(temp(), 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      system: { backup: { height } },
      rpc: { port: 7999, allowedMethods: ['generator', 'system', 'random'] },
    }),
  );
  return file;
};

describe('kestrel migrate (CLI)', () => {
  let fixture: SyntheticSnapshot;
  let config: string;
  let home: string;
  before(() => {
    fixture = writeSyntheticSnapshot(temp(), {
      height: HEIGHT,
      accounts: 50,
      validators: 6,
      active: 5,
      legacyAccounts: 2,
    });
    config = configWithBackupHeight(HEIGHT);
    home = temp();
  });
  const base = (): string[] => [
    'migrate',
    '--snapshot-height',
    String(HEIGHT),
    '-d',
    fixture.dataPath,
    '-c',
    config,
    '--successor-data-path',
    join(temp(), 'successor'),
    '--init-validators',
    '3',
  ];

  it('--help lists every flag, --auto-start-klayr-core-v4 included', async () => {
    const { code, stdout } = await run(['migrate', '--help']);
    assert.equal(code, 0);
    for (const flag of [
      '--snapshot-height',
      '--output',
      '--auto-migrate-config',
      '--auto-start',
      '--auto-start-klayr-core-v4',
      '--page-size',
      '--data-path',
      '--config',
      '--chain-id',
    ])
      assert.ok(stdout.includes(flag), flag);
  });

  it('writes the genesis block, its SHA-256, its JSON, forgingStatus.json and config.json under ~/.klayr/kestrel-migrator/<chainID> by default; prints progress and a summary', async () => {
    const { code, stdout, stderr } = await run(base(), { HOME: home });
    assert.equal(code, 0, stderr);
    const out = join(home, '.klayr', 'kestrel-migrator', '04000000');
    for (const f of [
      'genesis_block.blob',
      'genesis_block.blob.SHA256',
      'genesis_block.json',
      'forgingStatus.json',
      'config.json',
    ])
      assert.ok(existsSync(join(out, f)), f);
    const block = decodeBlock(readFileSync(join(out, 'genesis_block.blob')));
    assert.equal(block.header.height, HEIGHT + 1);
    assert.match(stdout, /auth accounts +5 /);
    assert.match(stdout, /validators +6 /);
    assert.match(stdout, /finality needs 3 of 3/);
    assert.match(stdout, /the stakes of 49 stakers included; unclaimed rewards \d+ paid/);
    assert.match(stdout, new RegExp(`genesis block +[0-9a-f]{64} at height ${HEIGHT + 1}`));
    assert.match(stdout, /state root +[0-9a-f]{64}/);
    assert.match(stdout, /total supply +\d+ of 0400000000000000/);
    assert.match(stderr, /Reading proofs of possession from the blocks: 2\/\d+ done/);
    assert.match(stderr, /Migrating token balances: \d+\/\d+ done/);
    const status = JSON.parse(readFileSync(join(out, 'forgingStatus.json'), 'utf8')) as object[];
    assert.deepEqual(Object.keys(status[0]!), ['address', 'height', 'maxHeightPrevoted', 'maxHeightGenerated']);
    // without --auto-migrate-config: only what the chain needs
    const minimal = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as {
      genesis: { chainID: string; block: { fromFile: string } };
      rpc?: unknown;
      system: { backup: { height: number } };
    };
    assert.equal(minimal.genesis.chainID, '04000000');
    assert.equal(minimal.genesis.block.fromFile, './genesis_block.blob');
    assert.equal(minimal.rpc, undefined);
    assert.equal(minimal.system.backup.height, 0);
  });

  it("--auto-migrate-config carries the old node's settings (rpc included) with the new chain ID; --chain-id changes the tokens in module settings", async () => {
    const output = join(temp(), 'out');
    const { code, stderr } = await run([
      ...base(),
      '--output',
      output,
      '--auto-migrate-config',
      '--chain-id',
      '02000000',
    ]);
    assert.equal(code, 0, stderr);
    const migrated = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as {
      rpc: { port: number; allowedMethods: string[] };
      genesis: { chainID: string };
      modules: { fee: { feeTokenID: string } };
    };
    assert.equal(migrated.rpc.port, 7999);
    assert.deepEqual(migrated.rpc.allowedMethods, ['generator', 'system', 'random']);
    assert.equal(migrated.genesis.chainID, '02000000');
    assert.equal(migrated.modules.fee.feeTokenID, '0200000000000000');
  });

  it('validators without a BLS key: the successor config sets modules.pos.useInvalidBLSKey and the summary says so', async () => {
    const keyless = writeSyntheticSnapshot(temp(), {
      height: HEIGHT,
      accounts: 30,
      validators: 5,
      active: 5,
      withoutBLSKey: [1],
    });
    const output = join(temp(), 'out');
    const { code, stdout, stderr } = await run([
      'migrate',
      '--snapshot-height',
      String(HEIGHT),
      '-d',
      keyless.dataPath,
      '-c',
      config,
      '--successor-data-path',
      join(temp(), 's'),
      '--output',
      output,
      '--init-validators',
      '3',
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /validators +5 \(5 banned, 1 without a BLS key\)/);
    assert.match(stdout, /useInvalidBLSKey +true/);
    const written = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as {
      modules: { pos: { useInvalidBLSKey: boolean } };
    };
    assert.equal(written.modules.pos.useInvalidBLSKey, true);
  });

  it('--snapshot-height other than system.backup.height: a clear error, nothing written', async () => {
    const output = join(temp(), 'out');
    const { code, stderr } = await run([
      'migrate',
      '--snapshot-height',
      String(HEIGHT + 1),
      '-d',
      fixture.dataPath,
      '-c',
      config,
      '--output',
      output,
    ]);
    assert.equal(code, 1);
    assert.match(
      stderr,
      /--snapshot-height 1031 but the backup under \S+ holds height 1030 \(the config read for the old node sets system\.backup\.height to 1030\)/,
    );
    assert.ok(!existsSync(output));
  });

  it('no snapshot of that height under the data path: a clear error', async () => {
    const { code, stderr } = await run([
      'migrate',
      '--snapshot-height',
      String(HEIGHT),
      '-d',
      temp(),
      '-c',
      config,
      '--successor-data-path',
      join(temp(), 's'),
      '--output',
      join(temp(), 'o'),
    ]);
    assert.equal(code, 1);
    assert.match(
      stderr,
      /No backup under \S+backup \(the config read for the old node sets system\.backup\.height to 1030\)/,
    );
    const other = configWithBackupHeight(HEIGHT + 5);
    const mismatch = await run([
      'migrate',
      '--snapshot-height',
      String(HEIGHT + 5),
      '-d',
      fixture.dataPath,
      '-c',
      other,
      '--successor-data-path',
      join(temp(), 's'),
      '--output',
      join(temp(), 'o'),
    ]);
    assert.equal(mismatch.code, 1);
    assert.match(
      mismatch.stderr,
      /--snapshot-height 1035 but the backup under \S+ holds height 1030 \(the config read for the old node sets system\.backup\.height to 1035\)/,
    );
  });

  it("without the old node's -c: the backup's manifest says which height it holds, and the config's other height is noted", async () => {
    const output = join(temp(), 'out');
    const wrong = await run(['migrate', '--snapshot-height', '25', '-d', fixture.dataPath, '--output', output]);
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.stderr,
      new RegExp(
        `--snapshot-height 25 but the backup under ${join(fixture.dataPath, 'backup')} holds height 1030 \\(the config read for the old node sets system\\.backup\\.height to 0\\)`,
      ),
    );
    assert.ok(!existsSync(output));
    const { code, stderr } = await run([
      'migrate',
      '--snapshot-height',
      String(HEIGHT),
      '-d',
      fixture.dataPath,
      '--successor-data-path',
      join(temp(), 'successor'),
      '--init-validators',
      '3',
      '--output',
      output,
    ]);
    assert.equal(code, 0, stderr);
    assert.match(
      stderr,
      /Note: the config read for the old node sets system\.backup\.height to 0, not 1030; the backup under \S+ holds height 1030 and is migrated/,
    );
    assert.ok(existsSync(join(output, 'genesis_block.blob')));
  });

  it('a sidechain --chain-id (not xx000000) is refused before any work, saying why', async () => {
    const output = join(temp(), 'out');
    const started = Date.now();
    const { code, stderr } = await run([...base(), '--output', output, '--chain-id', '04000002']);
    assert.equal(code, 1);
    assert.ok(Date.now() - started < 5000, 'refused before reading the snapshot');
    assert.match(stderr, /--chain-id 04000002 is a sidechain ID \(only IDs of the form xx000000 are mainchains\)/);
    assert.match(stderr, /cannot process the migrated state, which is a mainchain's/);
    assert.match(stderr, /Give a mainchain ID such as 04000000\./);
    assert.doesNotMatch(stderr, /Reading proofs of possession/);
    assert.ok(!existsSync(output));
  });

  it("--output inside the successor's default data directory is refused", async () => {
    const { code, stderr } = await run([...base(), '--output', join(home, '.klayr', 'kestrel', 'genesis')], {
      HOME: home,
    });
    assert.equal(code, 1);
    assert.match(stderr, /is not allowed: it is the successor node's default data directory/);
  });

  it("the successor data path may not be the old node's", async () => {
    const { code, stderr } = await run([
      'migrate',
      '--snapshot-height',
      String(HEIGHT),
      '-d',
      fixture.dataPath,
      '-c',
      config,
      '--successor-data-path',
      fixture.dataPath,
      '--output',
      join(temp(), 'o'),
    ]);
    assert.equal(code, 1);
    assert.match(stderr, /overlaps the old node's/);
  });

  it('bad flag values are refused by the parser', async () => {
    for (const args of [
      ['--snapshot-height', '-1'],
      ['--snapshot-height', 'x'],
      ['--snapshot-height', '5', '--page-size', '0'],
      ['--snapshot-height', '5', '--chain-id', 'zz'],
    ]) {
      const { code } = await run([
        'migrate',
        ...args,
        '-d',
        temp(),
        '-c',
        configWithBackupHeight(5),
        '--successor-data-path',
        join(temp(), 's'),
        '--output',
        join(temp(), 'o'),
      ]);
      assert.equal(code, 1, args.join(' '));
    }
  });

  it('--auto-start while the old node runs: refused once the files are written', async () => {
    // a live lock of this test process on the old data path stands for the running old node
    const { DataPathLock } = await import('../../src/main/lock/data_path_lock.js');
    const lock = DataPathLock.acquire(fixture.dataPath);
    try {
      const output = join(temp(), 'out');
      const { code, stderr } = await run([...base(), '--output', output, '--auto-start-klayr-core-v4']);
      assert.equal(code, 1);
      assert.match(stderr, /The old node still runs/);
      assert.ok(existsSync(join(output, 'genesis_block.blob')));
    } finally {
      lock.release();
    }
  });
});

describe('kestrel migrate --auto-start', () => {
  it('starts the successor as a supervised child once the old node is stopped, waits until it answers RPC; SIGTERM stops both', {
    timeout: 120_000,
  }, async () => {
    const fixture = writeSyntheticSnapshot(temp(), { height: HEIGHT, accounts: 20, validators: 4, active: 4 });
    const port = await freePort();
    const config = join(temp(), 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        system: { backup: { height: HEIGHT } },
        rpc: { port, modes: ['ipc', 'http'] },
        network: { host: '127.0.0.1', port: await freePort(), seedPeers: [] },
      }),
    );
    const successor = join(temp(), 'successor');
    const child = spawn(process.execPath, [
      cliPath,
      'migrate',
      '--snapshot-height',
      String(HEIGHT),
      '-d',
      fixture.dataPath,
      '-c',
      config,
      '--successor-data-path',
      successor,
      '--output',
      join(temp(), 'out'),
      '--auto-migrate-config',
      '--init-validators',
      '3',
      '--auto-start',
    ]);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitUntil('the successor answers', async () => stdout.includes('Successor node started'), 100_000);
      assert.match(stdout, new RegExp(`chain 04000000, height ${HEIGHT + 1}`));
      const info = (await httpRPC(port, 'system_getNodeInfo')) as { genesisHeight: number };
      assert.equal(info.genesisHeight, HEIGHT + 1);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    assert.equal(await httpRPC(port, 'system_getNodeInfo'), undefined, 'the successor stopped with its supervisor');
  });
});

describe('the output path rule', () => {
  it('a path is within a directory by path segments: ~/.klayr/kestrel-migrator is not inside ~/.klayr/kestrel', () => {
    assert.equal(isWithin('/h/.klayr/kestrel', '/h/.klayr/kestrel'), true);
    assert.equal(isWithin('/h/.klayr/kestrel/x/y', '/h/.klayr/kestrel'), true);
    assert.equal(isWithin('/h/.klayr/kestrel-migrator/04000000', '/h/.klayr/kestrel'), false);
    assert.equal(isWithin('/h/.klayr', '/h/.klayr/kestrel'), false);
    assert.throws(() => checkOutputPath('/h/.klayr/kestrel/../kestrel/out', '/h/.klayr/kestrel'), /not allowed/);
    assert.equal(
      checkOutputPath('/h/.klayr/kestrel-migrator/04000000', '/h/.klayr/kestrel'),
      '/h/.klayr/kestrel-migrator/04000000',
    );
  });
});

describe('the progress bar', () => {
  const stream = (isTTY: boolean) => {
    let text = '';
    return {
      isTTY,
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
      text: () => text,
    } as unknown as NodeJS.WriteStream & { text(): string };
  };
  it("on a terminal: a bar redrawn in place, ending with the step's time", () => {
    const out = stream(true);
    const step = progressBar(out).step('Migrating auth accounts', 4);
    step.tick(2);
    step.tick(2);
    step.done();
    assert.match(out.text(), /\rMigrating auth accounts \[#{15}\.{15}\] {2}50% 2\/4/);
    assert.match(out.text(), /\rMigrating auth accounts \[#{30}\] 100% 4\/4 \d+\.\d s\n$/);
  });
  it('elsewhere: one line per step', () => {
    const out = stream(false);
    const step = progressBar(out).step('Migrating token balances', 3);
    step.tick(3);
    step.done();
    assert.match(out.text(), /^Migrating token balances: 3\/3 done in \d+\.\d s\n$/);
  });
});

describe('the successor config', () => {
  const old = (): ApplicationConfig => loadConfig({ dataPath: temp() });
  it("carried (--auto-migrate-config): the old settings, the new chain ID and genesis file, no backup height, the old chain's token IDs turned into the new chain's, other tokens kept", () => {
    const base = old();
    base.system.backup.height = 99;
    base.modules.fee = { feeTokenID: '0400000000000000' };
    base.modules.token = {
      userAccountInitializationFee: '5000000',
      escrowAccountInitializationFee: '5000000',
      other: '0400000100000000',
    } as Record<string, unknown>;
    const c = successorConfig(base, {
      chainID: '02000000',
      dataPath: '/s',
      genesisFile: './genesis_block.blob',
      useInvalidBLSKey: false,
      carry: true,
    });
    assert.equal(c.genesis!.chainID, '02000000');
    assert.deepEqual(c.genesis!.block, { fromFile: './genesis_block.blob' });
    assert.equal(c.system!.dataPath, '/s');
    assert.equal(c.system!.backup.height, 0);
    assert.deepEqual(c.rpc, base.rpc);
    assert.equal((c.modules!.fee as { feeTokenID: string }).feeTokenID, '0200000000000000');
    assert.equal((c.modules!.token as { other: string }).other, '0400000100000000');
  });
  it('not carried: only the chain, the genesis file, the data path (and useInvalidBLSKey when needed)', () => {
    const c = successorConfig(old(), {
      chainID: '04000000',
      dataPath: '/s',
      genesisFile: './genesis_block.blob',
      useInvalidBLSKey: true,
      carry: false,
    });
    assert.deepEqual(Object.keys(c).sort(), ['genesis', 'modules', 'system']);
    assert.deepEqual(c.modules, { pos: { useInvalidBLSKey: true } });
  });
});

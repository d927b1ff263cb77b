import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPathConfigFile, installNetworkConfig, loadConfig, unusedConfigKeys } from '../../src/main/config/index.js';
import { settingsOverwrittenByNetwork } from '../../src/main/config/overwritten_settings.js';
import { readBackupManifest } from '../../src/storage/backup.js';
import { runCLI } from '../helpers/cli.js';
import { devnetFile } from '../helpers/devnet.js';
import { FAST_POS_WINDOWS, missingGenesisConfig, startNodeProcess, waitUntil } from '../helpers/node_process.js';
import { freePort, heldPort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

type Saved = Record<string, Record<string, unknown>>;
const readSaved = (dataPath: string): Saved => JSON.parse(readFileSync(dataPathConfigFile(dataPath), 'utf8')) as Saved;
const editSaved = (dataPath: string, edit: (config: Saved) => void): void => {
  const config = readSaved(dataPath);
  edit(config);
  writeFileSync(dataPathConfigFile(dataPath), JSON.stringify(config));
};
const configFile = (content: unknown): string => {
  const file = join(tempDataPath(), 'custom.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
};
/** A data path whose saved config differs from the embedded devnet's in system.backup.height (as when the network's config changed since it was saved). */
const savedWithBackupHeight = (height: number): string => {
  const dataPath = tempDataPath();
  installNetworkConfig('devnet', dataPath, false);
  editSaved(dataPath, (c) => (c.system!.backup = { height }));
  return dataPath;
};

describe("system.backup.height and the config saved under the data path (Klayr Core's start)", () => {
  it("the saved config's value is used while the network's differs; only --overwrite-config brings the network's", () => {
    const dataPath = savedWithBackupHeight(500);
    assert.equal(installNetworkConfig('devnet', dataPath, false), 'kept');
    assert.equal(loadConfig({ dataPath }).system.backup.height, 500);
    assert.deepEqual(settingsOverwrittenByNetwork('devnet', dataPath), ['system.backup.height']);
    assert.equal(installNetworkConfig('devnet', dataPath, true), 'overwritten');
    assert.deepEqual(readSaved(dataPath), JSON.parse(readFileSync(devnetFile('config.json'), 'utf8')));
    assert.equal(loadConfig({ dataPath }).system.backup.height, 0);
    assert.deepEqual(settingsOverwrittenByNetwork('devnet', dataPath), []);
  });

  it('a -c config file sets it on every start, with or without --overwrite-config, and is never saved', () => {
    const dataPath = savedWithBackupHeight(500);
    const file = configFile({ system: { backup: { height: 7 } } });
    assert.equal(loadConfig({ dataPath, config: file }).system.backup.height, 7);
    installNetworkConfig('devnet', dataPath, true);
    assert.equal(loadConfig({ dataPath, config: file }).system.backup.height, 7);
    assert.equal(readSaved(dataPath).system!.backup, undefined, "the devnet's config leaves it to the default, 0");
  });

  it('is a setting Kestrel acts on: not reported as unused', () => {
    const config = loadConfig({ dataPath: tempDataPath(), config: configFile({ system: { backup: { height: 12 } } }) });
    assert.deepEqual(
      unusedConfigKeys(config).map((u) => u.key),
      [],
    );
  });

  it('names nothing for a data path without a saved config, an unknown network or a saved file that is not JSON', () => {
    assert.deepEqual(settingsOverwrittenByNetwork('devnet', tempDataPath()), []);
    assert.deepEqual(settingsOverwrittenByNetwork('betanet', savedWithBackupHeight(5)), []);
    const unreadable = savedWithBackupHeight(5);
    writeFileSync(dataPathConfigFile(unreadable), '{ not json');
    assert.deepEqual(
      settingsOverwrittenByNetwork('devnet', unreadable),
      [],
      'a saved file that is not JSON has no settings to name',
    );
  });

  it('lists every leaf the overwrite changes, arrays as one value', () => {
    const dataPath = tempDataPath();
    installNetworkConfig('devnet', dataPath, false);
    editSaved(dataPath, (c) => {
      c.rpc!.port = 9000;
      c.rpc!.modes = ['ipc'];
      c.system!.backup = { height: 3 };
      c.extra = { nested: { value: 1 } };
    });
    assert.deepEqual(settingsOverwrittenByNetwork('devnet', dataPath).sort(), [
      'extra.nested.value',
      'rpc.modes',
      'rpc.port',
      'system.backup.height',
    ]);
  });
});

describe('kestrel start --overwrite-config', () => {
  // a start with this config file saves its config, then stops on the missing genesis file, before any chain work
  const stopsAfterConfig = missingGenesisConfig();
  // a port held here refuses a start before it writes anything
  let busy: { port: number; close(): void };
  before(async () => {
    busy = await heldPort();
  });
  after(() => busy.close());

  const warnings = (stderr: string): { msg: string; keys?: string[] }[] =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; keys?: string[] })
      .filter((r) => r.level === 40);

  it("warns which edits of the saved config it replaced with the network's", async () => {
    const dataPath = savedWithBackupHeight(500);
    const port = String(await freePort());
    const kept = await runCLI('start', '-d', dataPath, '-c', stopsAfterConfig, '--api-port', port);
    assert.equal(kept.code, 1);
    assert.deepEqual(warnings(kept.stderr), [], 'no overwrite, no warning (and backup.height is no unused key)');
    assert.equal((readSaved(dataPath).system!.backup as { height: number }).height, 500);
    const overwritten = await runCLI(
      'start',
      '-d',
      dataPath,
      '-c',
      stopsAfterConfig,
      '--overwrite-config',
      '--api-port',
      port,
    );
    assert.equal(overwritten.code, 1);
    const [warning] = warnings(overwritten.stderr);
    assert.deepEqual(warning?.keys, ['system.backup.height']);
    assert.match(
      warning!.msg,
      /^--overwrite-config replaced these settings of the saved config with the network's: system\.backup\.height \(a -c config file is laid over the config on every start\)$/,
    );
    assert.equal(readSaved(dataPath).system!.backup, undefined);
  });

  it('a start refused for a port in use replaces nothing and warns of nothing replaced', async () => {
    const dataPath = savedWithBackupHeight(500);
    const refused = await runCLI('start', '-d', dataPath, '--overwrite-config', '--api-port', String(busy.port));
    assert.equal(refused.code, 1);
    assert.deepEqual(warnings(refused.stderr), []);
    assert.deepEqual(readSaved(dataPath).system?.backup, { height: 500 });
  });
});

describe("the spec's step: set system.backup.height, restart with --overwrite-config", () => {
  it('kestrel start -c <file with the height> --overwrite-config backs up that height', {
    timeout: 120_000,
  }, async () => {
    const dataPath = savedWithBackupHeight(500);
    const file = configFile({
      genesis: { blockTime: 3 },
      modules: { pos: FAST_POS_WINDOWS },
      system: { backup: { height: 1 } },
    });
    const node = await startNodeProcess(
      dataPath,
      await freePort(),
      '-c',
      file,
      '--overwrite-config',
      '--log-format',
      'json',
    );
    try {
      await waitUntil('the backup of height 1', async () => readBackupManifest(dataPath)?.height === 1, 90_000);
    } finally {
      await node.stop();
    }
    const logs = node
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; keys?: string[]; height?: number });
    assert.ok(logs.some((l) => l.msg === 'Backup completed' && l.height === 1));
    assert.deepEqual(
      logs.find((l) => l.msg.startsWith('--overwrite-config replaced'))?.keys,
      ['system.backup.height'],
      'the saved edit (500) was replaced, the -c file still sets 1',
    );
    assert.equal(
      logs.some((l) => /accepted but not used/.test(l.msg)),
      false,
    );
  });
});

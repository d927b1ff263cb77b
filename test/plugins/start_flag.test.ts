// `kestrel start --enable-chain-connector-plugin`, as Klayr Core's flag: the plugin runs with plugins.chainConnector, checked before any work.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { enableFlaggedPlugins, startCommand } from '../../src/main/commands/node/start.js';
import { loadConfig } from '../../src/main/config/index.js';
import { enabledPlugins } from '../../src/main/plugins.js';
import { ReportMisbehaviorPlugin } from '../../src/plugins/report_misbehavior/index.js';
import { runCLI } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

describe('start --enable-chain-connector-plugin', () => {
  it('is listed by start --help', async () => {
    const { code, stdout } = await runCLI('start', '--help');
    assert.equal(code, 0);
    assert.match(stdout, /--enable-chain-connector-plugin/);
  });

  it('without plugins.chainConnector settings, stops at once naming the missing ones (no chain is opened)', async () => {
    const dataPath = tempDataPath();
    const { code, stderr } = await runCLI(
      'start',
      '-d',
      dataPath,
      '--api-port',
      String(await freePort()),
      '--enable-chain-connector-plugin',
    );
    assert.equal(code, 1);
    assert.match(stderr, /plugins\.chainConnector: must have required property 'encryptedPrivateKey'/);
    assert.match(stderr, /plugins\.chainConnector: must have required property 'receivingChainID'/);
    assert.equal(existsSync(join(dataPath, 'data')), false);
  });

  it("a config file with a plugins.chainConnector entry that breaks Klayr's schema is refused with its path", async () => {
    const dataPath = tempDataPath();
    const file = join(dataPath, 'custom.json');
    writeFileSync(
      file,
      JSON.stringify({
        plugins: { chainConnector: { receivingChainID: '04000000', encryptedPrivateKey: 'x', maxCCUSize: 20000 } },
      }),
    );
    const { code, stderr } = await runCLI('config:show', '-d', dataPath, '-c', file);
    assert.equal(code, 1);
    assert.match(stderr, /plugins\.chainConnector\.maxCCUSize: must be <= 10240/);
  });
});

describe('start --enable-report-misbehavior-plugin', () => {
  it('is listed by start --help', async () => {
    const { code, stdout } = await runCLI('start', '--help');
    assert.equal(code, 0);
    assert.match(stdout, /--enable-report-misbehavior-plugin/);
  });

  it("enables the plugin with Klayr's defaults, or with the settings plugins.reportMisbehavior has", () => {
    const command = startCommand();
    command.parseOptions(['--enable-report-misbehavior-plugin']);
    const config = loadConfig({ dataPath: tempDataPath() });
    assert.deepEqual(enabledPlugins(config), []);
    enableFlaggedPlugins(command.opts(), config);
    assert.deepEqual(config.plugins.reportMisbehavior, {});
    assert.ok(enabledPlugins(config).some((p) => p instanceof ReportMisbehaviorPlugin));
    const configured = loadConfig({ dataPath: tempDataPath() });
    configured.plugins.reportMisbehavior = { fee: 7 };
    enableFlaggedPlugins(command.opts(), configured);
    assert.deepEqual(configured.plugins.reportMisbehavior, { fee: 7 });
  });

  it('with a plugins.reportMisbehavior entry that breaks the schema, stops at once naming it (no chain is opened)', async () => {
    const dataPath = tempDataPath();
    const file = join(dataPath, 'custom.json');
    writeFileSync(file, JSON.stringify({ plugins: { reportMisbehavior: { fee: -1 } } }));
    const { code, stderr } = await runCLI(
      'start',
      '-d',
      dataPath,
      '-c',
      file,
      '--api-port',
      String(await freePort()),
      '--enable-report-misbehavior-plugin',
    );
    assert.equal(code, 1);
    assert.match(stderr, /plugins\.reportMisbehavior\.fee: must be >= 0/);
    assert.equal(existsSync(join(dataPath, 'data')), false);
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ConfigError,
  dataPathConfigFile,
  installNetworkConfig,
  loadConfig,
  unusedConfigKeys,
} from '../../src/main/config/index.js';
import { runCLI } from '../helpers/cli.js';
import { devnetFile } from '../helpers/devnet.js';
import { missingGenesisConfig } from '../helpers/node_process.js';
import { freePort, heldPort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const readJSON = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const editSaved = (dataPath: string, edit: (config: Record<string, Record<string, unknown>>) => void): void => {
  const config = readJSON(dataPathConfigFile(dataPath)) as Record<string, Record<string, unknown>>;
  edit(config);
  writeFileSync(dataPathConfigFile(dataPath), JSON.stringify(config));
};
const writeConfigFile = (content: unknown): string => {
  const file = join(tempDataPath(), 'custom.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
};

describe("the config saved under the data path (Klayr Core's <dataPath>/config)", () => {
  it("the first start saves the network's config files there, and its relative paths point into it", () => {
    const dataPath = tempDataPath();
    assert.equal(installNetworkConfig('devnet', dataPath, false), 'installed');
    for (const name of ['config.json', 'genesis_block.blob', 'dev-validators.json']) {
      assert.deepEqual(readFileSync(join(dataPath, 'config', name)), readFileSync(devnetFile(name)), name);
    }
    const config = loadConfig({ dataPath });
    assert.equal(config.genesis.block.fromFile, join(dataPath, 'config', 'genesis_block.blob'));
    assert.equal(config.generator?.keys.fromFile, join(dataPath, 'config', 'dev-validators.json'));
    assert.equal(
      config.system.dataPath,
      dataPath,
      "the saved config's system.dataPath (Klayr's ~/.klayr) does not move the data path",
    );
    assert.equal(config.genesis.chainID, '04000000');
  });

  it('is reused on the next start, edits included; a config file and flags still go over it', () => {
    const dataPath = tempDataPath();
    installNetworkConfig('devnet', dataPath, false);
    editSaved(dataPath, (c) => {
      c.rpc!.port = 9123;
      c.system!.logLevel = 'debug';
    });
    assert.equal(installNetworkConfig('devnet', dataPath, false), 'kept');
    const config = loadConfig({ dataPath });
    assert.equal(config.rpc.port, 9123);
    assert.equal(config.system.logLevel, 'debug');
    assert.equal(loadConfig({ dataPath, apiPort: 9200 }).rpc.port, 9200);
    assert.equal(
      loadConfig({ dataPath, config: writeConfigFile({ system: { logLevel: 'warn' } }) }).system.logLevel,
      'warn',
    );
    assert.equal(loadConfig({ dataPath, config: writeConfigFile({ system: { logLevel: 'warn' } }) }).rpc.port, 9123);
  });

  it("--overwrite-config replaces it with the network's", () => {
    const dataPath = tempDataPath();
    installNetworkConfig('devnet', dataPath, false);
    editSaved(dataPath, (c) => (c.rpc!.port = 9123));
    assert.equal(installNetworkConfig('devnet', dataPath, true), 'overwritten');
    assert.deepEqual(readJSON(dataPathConfigFile(dataPath)), readJSON(devnetFile('config.json')));
    assert.equal(loadConfig({ dataPath }).rpc.port, 7887);
  });

  it('a data path holding another genesis block needs --overwrite-config, as in Klayr Core', () => {
    const dataPath = tempDataPath();
    installNetworkConfig('devnet', dataPath, false);
    writeFileSync(join(dataPath, 'config', 'genesis_block.blob'), Buffer.from('other'));
    assert.throws(
      () => installNetworkConfig('devnet', dataPath, false),
      (e: unknown) => e instanceof ConfigError && /already contains configs .* use --overwrite-config/.test(e.message),
    );
    installNetworkConfig('devnet', dataPath, true);
    assert.deepEqual(
      readFileSync(join(dataPath, 'config', 'genesis_block.blob')),
      readFileSync(devnetFile('genesis_block.blob')),
    );
  });

  it('an unknown network is a config error', () => {
    assert.throws(() => installNetworkConfig('betanet', tempDataPath(), false), /Unknown network "betanet"/);
  });

  it('config:show reads it', async () => {
    const dataPath = tempDataPath();
    installNetworkConfig('devnet', dataPath, false);
    editSaved(dataPath, (c) => (c.transactionPool!.maxTransactions = 77));
    const shown = await runCLI('config:show', '-d', dataPath);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(
      (JSON.parse(shown.stdout) as { transactionPool: { maxTransactions: number } }).transactionPool.maxTransactions,
      77,
    );
  });
});

describe('config keys Kestrel accepts but does not act on', () => {
  it('the devnet config has none', () => {
    assert.deepEqual(unusedConfigKeys(loadConfig({ dataPath: tempDataPath() })), []);
  });

  it('names each key that is set and ignored, and only those', () => {
    const file = writeConfigFile({
      network: { seedPeers: [{ ip: '127.0.0.1', port: 7667 }], fixedPeers: [], port: 7700, maxInboundConnections: 10 },
      plugins: { dashboard: {}, faucet: { port: 4004 }, reportMisbehavior: { fee: 5, defaultPassword: 'pw' } },
      system: { backup: { height: 100 } },
      legacy: { sync: true, brackets: [] },
      modules: {
        random: { maxLengthReveals: 206 },
        pos: { numberActiveValidators: 51, futureSetting: 1 },
        fee: { feePoolAddress: 'klyguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad' },
        nft: {},
      },
    });
    const keys = unusedConfigKeys(loadConfig({ dataPath: tempDataPath(), config: file })).map((u) => u.key);
    // legacy.sync is acted on (legacy blocks are synced from peers)
    assert.deepEqual(keys.sort(), [
      'modules.nft',
      'modules.pos.futureSetting',
      'modules.random.maxLengthReveals',
      'plugins.dashboard',
      'plugins.faucet',
      'plugins.reportMisbehavior.defaultPassword',
    ]);
  });

  it('rpc.threadNice is reported without an HTTP or WS mode (its thread does not run), accepted in -20..19 only', () => {
    const withModes = (modes: string[], threadNice: unknown) =>
      loadConfig({ dataPath: tempDataPath(), config: writeConfigFile({ rpc: { modes, threadNice } }) });
    assert.deepEqual(
      unusedConfigKeys(withModes(['ipc'], -5)).map((u) => u.key),
      ['rpc.threadNice'],
    );
    assert.deepEqual(unusedConfigKeys(withModes(['ipc', 'ws'], -5)), []);
    assert.deepEqual(unusedConfigKeys(withModes(['http'], 19)), []);
    for (const wrong of [20, -21, 1.5, '5']) assert.throws(() => withModes(['http'], wrong), /threadNice/);
  });
});

describe('kestrel start with the saved config', () => {
  // a port held here refuses each start before it writes anything, right after its config is settled
  let busy: { port: number; close(): void };
  let busyPort: number;
  before(async () => {
    busy = await heldPort();
    busyPort = busy.port;
  });
  after(() => busy.close());

  it('saves it on the first start (not on a refused one), reuses it on the next, and --overwrite-config replaces it', async () => {
    const dataPath = join(tempDataPath(), 'node');
    const refused = await runCLI('start', '-d', dataPath, '--api-port', String(busyPort));
    assert.equal(refused.code, 1);
    assert.equal(existsSync(dataPath), false, 'a start refused for its port writes nothing');
    // this config file's genesis file is missing: each start below saves its config, then stops before any chain work
    const stopsAfterConfig = missingGenesisConfig();
    const port = String(await freePort());
    const first = await runCLI('start', '-d', dataPath, '-c', stopsAfterConfig, '--api-port', port);
    assert.equal(first.code, 1);
    assert.deepEqual(readJSON(dataPathConfigFile(dataPath)), readJSON(devnetFile('config.json')));
    editSaved(dataPath, (c) => (c.rpc!.port = busyPort));
    const reused = await runCLI('start', '-d', dataPath);
    assert.match(
      reused.stderr,
      new RegExp(`Port ${busyPort} on 127\\.0\\.0\\.1 is already in use`),
      `the saved rpc.port was used: ${reused.stderr}`,
    );
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
    assert.equal((readJSON(dataPathConfigFile(dataPath)).rpc as { port: number }).port, 7887);
  });

  it('warns once at start about each config key it ignores', async () => {
    const file = writeConfigFile({
      network: { seedPeers: [{ ip: '127.0.0.1', port: 7667 }], seedpeers: [] },
      plugins: { dashboard: {} },
    });
    const run = await runCLI('start', '-d', tempDataPath(), '-c', file, '--api-port', String(busyPort));
    const warnings = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; key?: string; msg: string })
      .filter((r) => r.level === 40);
    assert.deepEqual(
      warnings.map((w) => w.key),
      ['plugins.dashboard', 'network.seedpeers'],
    );
    assert.match(
      warnings[0]!.msg,
      /^Config key plugins\.dashboard is accepted but not used: Kestrel runs only the chainConnector and reportMisbehavior plugins$/,
    );
    // a typo of a setting's name: accepted by the schema, as by Klayr Core's, and read by nothing
    assert.equal(
      warnings[1]!.msg,
      'Config key network.seedpeers is accepted but not used: no network setting has this name (a typo?)',
    );
  });
});

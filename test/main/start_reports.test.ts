import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPathConfigFile, installNetworkConfig, loadConfig } from '../../src/main/config/index.js';
import { closedRpcWarning } from '../../src/main/config/rpc_access_warning.js';
import { runCLI, runCLIWith } from '../helpers/cli.js';
import { devValidators } from '../helpers/devnet.js';
import { httpRPC, startNodeProcess, waitUntil } from '../helpers/node_process.js';
import { freePort, heldPort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

interface LogLine {
  level: number;
  msg: string;
  key?: string;
  err?: { type: string; message: string; problems?: string[] };
  [field: string]: unknown;
}

const jsonLines = (stderr: string): LogLine[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** A data path that does not exist yet (its parent does). */
const newDataPath = (): string => join(tempDataPath(), 'node');

describe('kestrel start: a refused start writes nothing and says why', () => {
  let busy: { port: number; close(): void };
  before(async () => {
    busy = await heldPort();
  });
  after(() => busy.close());

  it('a port in use: the new data path stays absent, and the error is a JSON log line where logs are JSON', async () => {
    const dataPath = newDataPath();
    const refused = await runCLI('start', '-d', dataPath, '--api-port', String(busy.port));
    assert.equal(refused.code, 1);
    assert.equal(existsSync(dataPath), false, 'no data path, no saved config, no lock');
    const fatal = jsonLines(refused.stderr).filter((l) => l.level === 60);
    assert.equal(fatal.length, 1, refused.stderr);
    assert.equal(fatal[0]?.msg, `Port ${busy.port} on 127.0.0.1 is already in use (rpc.port)`);
    assert.equal(fatal[0]?.err?.type, 'PortInUseError');
    assert.ok(!/^Error: /m.test(refused.stderr), 'no second, plain-text report');
  });

  it('one port for P2P and RPC: refused before anything is written, naming both settings', async () => {
    const dataPath = newDataPath();
    const port = String(await freePort());
    const refused = await runCLI('start', '-d', dataPath, '--api-port', port, '--port', port);
    assert.equal(refused.code, 1);
    assert.equal(existsSync(dataPath), false, 'no data path');
    const fatal = jsonLines(refused.stderr).filter((l) => l.level === 60);
    assert.equal(fatal.length, 1, refused.stderr);
    assert.equal(
      fatal[0]?.msg,
      `network.port and rpc.port are both ${port} (P2P on 0.0.0.0, RPC on 127.0.0.1): give the node two ports`,
    );
  });

  it('--overwrite-config checks the port of the config it will write, and a refusal leaves the saved config as it was', async () => {
    const dataPath = newDataPath();
    installNetworkConfig('devnet', dataPath, false);
    const saved = dataPathConfigFile(dataPath);
    const ipcOnly = JSON.parse(readFileSync(saved, 'utf8')) as { rpc: { modes: string[] } };
    ipcOnly.rpc.modes = ['ipc'];
    writeFileSync(saved, JSON.stringify(ipcOnly));
    const refused = await runCLI('start', '-d', dataPath, '--overwrite-config', '--api-port', String(busy.port));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already in use \(rpc\.port\)/);
    assert.deepEqual(JSON.parse(readFileSync(saved, 'utf8')), ipcOnly);
    assert.deepEqual(readdirSync(dataPath), ['config'], 'no database, the lock released');
  });

  it('--log-format pretty: the error is plain text', async () => {
    const dataPath = newDataPath();
    const refused = await runCLI('start', '-d', dataPath, '--api-port', String(busy.port), '--log-format', 'pretty');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`^Error: Port ${busy.port} on 127\\.0\\.0\\.1 is already in use`, 'm'));
    assert.equal(jsonLines(refused.stderr).length, 0);
    assert.equal(existsSync(dataPath), false);
  });

  it('a wrong config: one JSON line listing the problems, even with logLevel none, nothing written', async () => {
    const dataPath = newDataPath();
    const file = join(tempDataPath(), 'bad.json');
    writeFileSync(file, JSON.stringify({ system: { logLevel: 'none' }, rpc: { port: 'x' } }));
    const refused = await runCLI('start', '-d', dataPath, '-c', file);
    assert.equal(refused.code, 1);
    const [fatal] = jsonLines(refused.stderr);
    assert.equal(fatal?.level, 60, refused.stderr);
    assert.equal(fatal.err?.type, 'ConfigError');
    assert.match(fatal.msg, /^Invalid configuration:\n {2}- config\.rpc\.port: /);
    assert.ok(fatal.err?.problems?.some((p) => p.startsWith('config.rpc.port')));
    assert.equal(existsSync(dataPath), false);
  });

  it("a live preset's rpc.allowedMethods [] is named in a warning that says how to open namespaces", async () => {
    const dataPath = newDataPath();
    const run = await runCLI('start', '-n', 'testnet', '-d', dataPath, '--api-port', String(busy.port), '--api-http');
    assert.equal(run.code, 1);
    const warning = jsonLines(run.stderr).find((l) => l.key === 'rpc.allowedMethods');
    assert.equal(warning?.level, 40, run.stderr);
    assert.match(warning.msg, /^rpc\.allowedMethods is \[\] : every RPC method is refused \(over http/);
    assert.ok(warning.msg.includes('set rpc.allowedMethods to ["*"] or a list of namespaces'));
    assert.ok(warning.msg.includes(join(dataPath, 'config', 'config.json')), warning.msg);
    assert.equal(jsonLines(run.stderr).at(-1)?.level, 60, 'the refusal comes last, after the warnings');
    assert.equal(existsSync(dataPath), false);
  });
});

describe("kestrel start takes Klayr Core's environment variables and start flags", () => {
  it('KLAYR_NETWORK, KLAYR_DATA_PATH, KLAYR_API_WS_PORT and KLAYR_API_HTTP; klayr-core plugin flags said unused; a genesis download refused', async () => {
    const busy = await heldPort();
    try {
      const dataPath = newDataPath();
      const run = await runCLIWith(
        {
          env: {
            KLAYR_NETWORK: 'testnet',
            KLAYR_DATA_PATH: dataPath,
            KLAYR_API_WS_PORT: String(busy.port),
            KLAYR_API_HTTP: 'true',
          },
        },
        'start',
        '--enable-forger-plugin',
        '--enable-dashboard-plugin',
        '--dashboard-plugin-port',
        '4005',
      );
      assert.equal(run.code, 1);
      const lines = jsonLines(run.stderr);
      // the testnet preset (its closed RPC named), the environment's port (refused as busy), its data path (left absent)
      assert.ok(
        lines.some((l) => l.key === 'rpc.allowedMethods'),
        run.stderr,
      );
      assert.equal(lines.at(-1)?.msg, `Port ${busy.port} on 127.0.0.1 is already in use (rpc.port)`);
      assert.equal(existsSync(dataPath), false);
      const unused = lines.filter((l) => typeof l.flag === 'string').map((l) => [l.flag, l.level]);
      assert.deepEqual(unused, [
        ['--enable-forger-plugin', 40],
        ['--enable-dashboard-plugin', 40],
        ['--dashboard-plugin-port', 40],
      ]);
      const download = await runCLI('start', '-d', newDataPath(), '-u', 'https://example.invalid/genesis_block.blob');
      assert.equal(download.code, 1);
      assert.match(
        download.stderr,
        /--genesis-block-url and --overwrite-genesis-block are Klayr Core's genesis block download/,
      );
      const short = await runCLI(
        'start',
        '-d',
        newDataPath(),
        '-p',
        String(busy.port),
        '--api-port',
        String(busy.port),
      );
      assert.match(short.stderr, new RegExp(`network\\.port and rpc\\.port are both ${busy.port}`), '-p is --port');
    } finally {
      busy.close();
    }
  });
});

describe('rpc.allowedMethods warning', () => {
  it('only when the list is empty', () => {
    const config = loadConfig({ dataPath: tempDataPath() });
    assert.equal(closedRpcWarning(config), undefined, 'the devnet allows "*"');
    config.rpc.allowedMethods = ['system'];
    assert.equal(closedRpcWarning(config), undefined);
    config.rpc.allowedMethods = [];
    assert.match(closedRpcWarning(config) ?? '', /^rpc\.allowedMethods is \[\] : every RPC method is refused/);
    assert.match(closedRpcWarning(loadConfig({ network: 'mainnet', dataPath: tempDataPath() })) ?? '', /is \[\]/);
  });
});

describe('kestrel start: what the node does is logged', () => {
  it('no plain keys: says no blocks will be generated; key imports and generation switched on and off are logged; a clean stop logs what stopped', async () => {
    const dir = tempDataPath();
    const keys = join(dir, 'keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [] }));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ generator: { keys: { fromFile: keys } } }));
    const dataPath = join(dir, 'node');
    const node = await startNodeProcess(dataPath, await freePort(), '-c', config);
    try {
      await waitUntil('the node answers', async () => (await httpRPC(node.port, 'system_getNodeInfo')) !== undefined);
      const [validator] = devValidators().slice(5);
      assert.ok(validator !== undefined);
      const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = validator.plain;
      const zero = { height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 };
      await httpRPC(node.port, 'generator_setKeys', {
        address: validator.address,
        type: 'plain',
        data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey },
      });
      const status = { address: validator.address, password: '', ...zero };
      assert.deepEqual(await httpRPC(node.port, 'generator_updateStatus', { ...status, enable: true }), {
        address: validator.address,
        enabled: true,
      });
      await httpRPC(node.port, 'generator_updateStatus', { ...status, enable: false });
    } finally {
      assert.deepEqual(await node.stop(), { code: 0, signal: null });
    }
    const lines = jsonLines(node.stderr());
    const messages = lines.map((l) => l.msg);
    assert.ok(messages.includes(`Generator keys loaded from ${keys}: 0 plain, 0 encrypted`), node.stderr());
    assert.ok(
      messages.some((m) => m.startsWith('No blocks will be generated: no validator has plain keys')),
      node.stderr(),
    );
    assert.ok(
      messages.some((m) => m.startsWith('Node.js started without --max-semi-space-size=64: ')),
      'started as node cli.js, without the flags the kestrel command sets',
    );
    const address = devValidators()[5]?.address;
    for (const expected of [
      `Generator keys imported for ${address} (plain); generation stays off until generator:enable`,
      `Block generation enabled for ${address} (from height 0)`,
      `Block generation disabled for ${address}`,
    ])
      assert.ok(messages.includes(expected), `${expected} in ${node.stderr()}`);
    const stopped = lines.at(-1);
    assert.match(
      stopped?.msg ?? '',
      // a height above 0 if the validator's slot came in the moment its generation was enabled
      /^Node stopped at height \d+: block generation, P2P network, transaction pool, worker pools \(/,
      node.stderr(),
    );
    assert.ok(stopped?.msg.endsWith('RPC (ipc, ws, http), database, data path lock released'), stopped?.msg);
    assert.equal(stopped?.level, 30);
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/main/config/index.js';
import { createLogger } from '../../src/main/logger.js';
import { devnetFile } from '../helpers/devnet.js';

const writeConfig = (content: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'kestrel-config-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

describe('config', () => {
  it("defaults to Klayr Core's devnet: chain 04000000, block time 7, rpc port 7887, embedded genesis block and keys", (t) => {
    // a home of its own: a node started on this machine saves its config under ~/.klayr/kestrel, which would be read instead
    const home = process.env.HOME;
    process.env.HOME = mkdtempSync(join(tmpdir(), 'kestrel-home-'));
    t.after(() => {
      if (home === undefined) delete process.env.HOME;
      else process.env.HOME = home;
    });
    const config = loadConfig();
    assert.equal(config.genesis.chainID, '04000000');
    assert.equal(config.genesis.blockTime, 7);
    assert.equal(config.genesis.bftBatchSize, 53);
    assert.equal(config.rpc.port, 7887);
    assert.deepEqual(config.rpc.modes, ['ipc', 'ws', 'http']);
    assert.equal(config.network.port, 7667);
    assert.equal(config.genesis.block.fromFile, devnetFile('genesis_block.blob'));
    assert.equal(config.generator?.keys.fromFile, devnetFile('dev-validators.json'));
    assert.equal(config.modules.dynamicReward?.offset, 360);
    assert.equal(config.system.keepEventsForHeights, -1);
    assert.equal(config.system.dataPath, join(homedir(), '.klayr/kestrel'));
  });

  it('flags override the config file, which overrides the preset', () => {
    const file = writeConfig({
      rpc: { port: 9000, host: '0.0.0.0', modes: ['ipc'] },
      system: { logLevel: 'debug', keepEventsForHeights: 300 },
      genesis: { block: { fromFile: './genesis.blob' } },
    });
    const fromFile = loadConfig({ config: file });
    assert.equal(fromFile.rpc.port, 9000);
    assert.deepEqual(fromFile.rpc.modes, ['ipc']);
    assert.equal(fromFile.system.logLevel, 'debug');
    assert.equal(fromFile.system.keepEventsForHeights, 300);
    assert.equal(fromFile.genesis.block.fromFile, join(file, '..', 'genesis.blob'), 'relative to the config file');
    const flagged = loadConfig({
      config: file,
      apiPort: 9100,
      apiHost: '127.0.0.2',
      apiWs: true,
      log: 'warn',
      dataPath: '/tmp/kestrel-x',
    });
    assert.equal(flagged.rpc.port, 9100);
    assert.equal(flagged.rpc.host, '127.0.0.2');
    assert.deepEqual(flagged.rpc.modes, ['ws'], "as Klayr Core's: the flagged transports replace rpc.modes");
    assert.equal(flagged.system.logLevel, 'warn');
    assert.equal(flagged.system.dataPath, '/tmp/kestrel-x');
  });

  it('a wrong config is refused with the JSON path of every problem', () => {
    const file = writeConfig({
      rpc: { port: 80, modes: ['udp'] },
      system: { logLevel: 'loud', backup: { height: -1 } },
      genesis: { chainID: 'zz', blockTime: 1 },
      unknown: 1,
      modules: { '1bad': {} },
    });
    assert.throws(
      () => loadConfig({ config: file }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        for (const path of [
          'config.rpc.port',
          'config.rpc.modes.0',
          'config.system.logLevel',
          'config.system.backup.height',
          'config.genesis.chainID',
          'config.genesis.blockTime',
          "config: has extraneous property 'unknown'",
          'config.modules.1bad',
        ]) {
          assert.ok(
            e.problems.some((p) => p.startsWith(path)),
            `no problem at ${path}: ${e.message}`,
          );
        }
        return true;
      },
    );
  });

  it('a missing or malformed config file and an unknown network are clear errors', () => {
    assert.throws(() => loadConfig({ config: '/nonexistent/config.json' }), /does not exist/);
    assert.throws(() => loadConfig({ config: writeConfig('{not json') }), /not valid JSON/);
    assert.throws(
      () => loadConfig({ network: 'betanet' }),
      /Unknown network "betanet". Available networks: devnet, testnet, mainnet/,
    );
  });

  it('the logger honours levels, and "none" silences it', () => {
    assert.equal(createLogger('none').level, 'silent');
    assert.equal(createLogger('debug').isLevelEnabled('debug'), true);
    assert.equal(createLogger('warn').isLevelEnabled('info'), false);
  });
});

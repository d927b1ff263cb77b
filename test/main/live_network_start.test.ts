import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { installNetworkConfig, loadConfig, NETWORKS, networkPreset } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

describe("Klayr Core's live networks embedded as presets (-n testnet, -n mainnet)", () => {
  it('lists devnet, testnet and mainnet; only the devnet preset brings validator keys', () => {
    assert.deepEqual([...NETWORKS], ['devnet', 'testnet', 'mainnet']);
    assert.equal(networkPreset('mainnet').genesis?.chainID, '00000000');
    assert.equal(networkPreset('testnet').genesis?.chainID, '01000000');
    assert.equal(networkPreset('mainnet').generator, undefined);
    assert.ok(networkPreset('devnet').generator?.keys.fromFile?.endsWith('dev-validators.json'));
  });

  it("a first start on testnet saves Klayr's config and the decompressed genesis block under the data path, processes the genesis block and serves it", async () => {
    const dataPath = tempDataPath();
    assert.equal(installNetworkConfig('testnet', dataPath, false), 'installed');
    const saved = join(dataPath, 'config', 'genesis_block.blob');
    assert.ok(existsSync(saved));
    assert.equal(
      JSON.parse(readFileSync(join(dataPath, 'config', 'config.json'), 'utf8')).genesis.block.fromFile,
      './config/genesis_block.blob',
    );
    // the same network again keeps it; another network's genesis needs --overwrite-config
    assert.equal(installNetworkConfig('testnet', dataPath, false), 'kept');
    assert.throws(() => installNetworkConfig('mainnet', dataPath, false), /another genesis block than mainnet's/);

    const config = loadConfig({ network: 'testnet', dataPath, apiPort: await freePort() });
    assert.equal(config.genesis.block.fromFile, saved);
    config.rpc.allowedMethods = ['system', 'chain'];
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    try {
      const info = (await node.registry.get('system_getNodeInfo')!.handler({ params: {}, transport: 'ipc' })) as {
        chainID: string;
        height: number;
        genesisHeight: number;
      };
      assert.equal(info.chainID, '01000000');
      assert.equal(info.height, 0);
      const genesis = (await node.registry
        .get('chain_getBlockByHeight')!
        .handler({ params: { height: 0 }, transport: 'ipc' })) as { assets: { module: string }[] };
      assert.deepEqual(
        genesis.assets.map((a) => a.module),
        ['auth', 'interoperability', 'pos', 'token'],
      );
    } finally {
      await node.stop();
    }
  });
});

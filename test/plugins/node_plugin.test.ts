// A devnet node with the chainConnector plugin: wired in process, fed every committed block, its endpoints behind rpc.allowedMethods.
import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { enabledPlugins } from '../../src/main/plugins.js';
import { enablesPlugins } from '../../src/main/plugins_start.js';
import { ChainConnectorPlugin } from '../../src/plugins/chain_connector/index.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const rpc = async (port: number, method: string, params: Record<string, unknown> = {}) => {
  const reply = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await reply.json()) as { result?: unknown; error?: { code: number; message: string } };
};

describe('the plugins a config enables', () => {
  it('none without plugins.chainConnector (other plugins entries are only reported unused), the chain connector with it', () => {
    const config = loadConfig({ dataPath: tempDataPath() });
    assert.deepEqual(enabledPlugins(config), []);
    config.plugins.dashboard = {};
    assert.deepEqual(enabledPlugins(config), []);
    assert.equal(enablesPlugins(config), false, "the node does not load the plugins' code");
    config.plugins.chainConnector = {};
    assert.ok(enabledPlugins(config)[0] instanceof ChainConnectorPlugin);
    assert.equal(enablesPlugins(config), true);
    delete config.plugins.chainConnector;
    config.plugins.reportMisbehavior = {};
    assert.equal(enabledPlugins(config).length, 1);
    assert.equal(enablesPlugins(config), true);
  });
});

describe('a node running the chainConnector plugin', () => {
  it('records each block the node commits in <dataPath>/plugins/chain_connector, serves only the methods allowedMethods lists, shows the ccu pool on /metrics', async () => {
    const dataPath = tempDataPath();
    const config = loadConfig({ dataPath, apiPort: await freePort() });
    config.rpc.modes = ['http'];
    config.rpc.allowedMethods = ['system', 'chainConnector_getBlockHeaders', 'chainConnector_getAllValidatorsData'];
    config.genesis.blockTime = 3;
    const encryptedPrivateKey = klayrCrypto.encrypt.stringifyEncryptedMessage(
      await klayrCrypto.encrypt.encryptMessageWithPassword('00'.repeat(64), 'pw', {
        kdfparams: { memorySize: 1024, iterations: 1, parallelism: 1 },
      }),
    );
    // a receiving node that is not there: every attempt fails and is logged, the node goes on
    config.plugins.chainConnector = {
      receivingChainID: '04000000',
      receivingChainWsURL: `ws://127.0.0.1:${await freePort()}/rpc-ws`,
      encryptedPrivateKey,
    };
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    try {
      const port = config.rpc.port;
      assert.ok(existsSync(join(dataPath, 'plugins', 'chain_connector', 'chain_connector.lmdb')));
      await waitUntil(
        'two blocks after genesis',
        async () => (((await rpc(port, 'system_getNodeInfo')).result as { height: number }).height ?? 0) >= 2,
        30_000,
      );
      const headers = (await rpc(port, 'chainConnector_getBlockHeaders', { from: 0, to: 10 })).result as {
        height: number;
        id: string;
      }[];
      assert.ok(headers.length >= 2, JSON.stringify(headers));
      assert.deepEqual(
        headers.map((h) => h.height),
        [...headers.map((h) => h.height)].sort((a, b) => b - a),
      );
      const block = (await rpc(port, 'chain_getBlockByHeight', { height: headers.at(-1)!.height })) as {
        error?: { message: string };
      };
      assert.match(block.error!.message, /disabled in node config/);
      const validators = (await rpc(port, 'chainConnector_getAllValidatorsData')).result as {
        validators: unknown[];
        certificateThreshold: string;
      }[];
      assert.equal(validators.length, 1);
      assert.equal(validators[0]!.validators.length, 51);
      const refused = await rpc(port, 'chainConnector_getSentCCUs');
      assert.deepEqual(refused.error, {
        code: -32600,
        message: 'Requested method or namespace is disabled in node config.',
      });
      assert.match(
        await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(),
        /kestrel_pool_queue_depth\{pool="ccu"\} 0/,
      );
      const authorize = await rpc(port, 'chainConnector_authorize', { password: 'pw', enable: true });
      assert.equal(authorize.error?.message, 'Requested method or namespace is disabled in node config.');
    } finally {
      await node.stop();
    }
  });
});

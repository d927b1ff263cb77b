// Two nodes of Klayr's testnet preset (chain 01000000, network version 6.1) find each other over P2P; a devnet node
// is refused by them as a peer of another chain. The seeds of the preset are replaced by local peers: no traffic
// leaves this machine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { installNetworkConfig, loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { KestrelNode } from '../../src/main/node.js';
import { call, nodeInfo, waitFor } from '../helpers/klayr_peer_world.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const testnetNode = async (host: string, seeds: { ip: string; port: number }[]): Promise<KestrelNode> => {
  const dataPath = tempDataPath();
  installNetworkConfig('testnet', dataPath, false);
  const config: ApplicationConfig = loadConfig({ network: 'testnet', dataPath, apiPort: await freePort() });
  config.rpc = { ...config.rpc, modes: ['http'], allowedMethods: ['system', 'network', 'chain'] };
  config.network = { ...config.network, host, port: await freePort(), seedPeers: seeds };
  const node = new KestrelNode(config, pino({ level: 'silent' }));
  await node.start();
  return node;
};

describe('nodes of a live preset as peers', { timeout: 180_000 }, () => {
  it('a testnet node dials its seed, both list each other with the preset chain ID and network version, and agree on the tip', async () => {
    const a = await testnetNode('127.0.0.1', []);
    const aPort = a.config.network.port as number;
    const b = await testnetNode('127.0.0.2', [{ ip: '127.0.0.1', port: aPort }]);
    try {
      const peer = await waitFor('B connected to A', 30_000, async () => {
        const peers = await call<Record<string, unknown>[]>(b.config.rpc.port, 'network_getConnectedPeers');
        return peers.find((p) => p.ipAddress === '127.0.0.1' && (p.options as { height?: number })?.height === 0);
      });
      assert.equal(peer.chainID, '01000000');
      assert.equal(peer.networkVersion, a.config.network.version);
      const [infoA, infoB] = await Promise.all([nodeInfo(a.config.rpc.port), nodeInfo(b.config.rpc.port)]);
      assert.equal(infoB.lastBlockID, infoA.lastBlockID);
      assert.equal((peer.options as { lastBlockID: string }).lastBlockID, infoA.lastBlockID);
      // an inbound peer is listed by the address it dialled from (loopback picks 127.0.0.1) and the port it announced
      await waitFor('A lists B', 30_000, async () => {
        const peers = await call<{ port: number }[]>(a.config.rpc.port, 'network_getConnectedPeers');
        return peers.some((p) => p.port === b.config.network.port) ? true : undefined;
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

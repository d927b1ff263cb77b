// The P2P node's own contract: seed names resolved before construction, listeners that throw, start/stop rules,
// network stats.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolvePeerAddresses } from '../../src/network/p2p/resolve.js';
import { baseNodeInfo, nodeOptions, randomPort, startKestrel, startKlayr, waitFor } from '../helpers/p2p.js';
import { handshakenRawPeer, honestQuery } from '../helpers/raw_peer.js';

describe('resolvePeerAddresses', () => {
  it('keeps IPv4 addresses, resolves names, keeps names that do not resolve', async () => {
    assert.deepEqual(
      await resolvePeerAddresses([
        { ip: '1.2.3.4', port: 1 },
        { ip: 'localhost', port: 2 },
        { ip: 'bad..name', port: 3 },
      ]),
      [
        { ipAddress: '1.2.3.4', port: 1 },
        { ipAddress: '127.0.0.1', port: 2 },
        { ipAddress: 'bad..name', port: 3 },
      ],
    );
  });
});

describe('the P2P node', () => {
  it('a listener that throws does not stop a peer from connecting', async () => {
    const port = randomPort();
    const p2p = await startKestrel({ hostIp: '127.0.0.2', port });
    p2p.on('peerConnected', () => {
      throw new Error('listener bug');
    });
    try {
      const peer = await handshakenRawPeer({ host: '127.0.0.2', port, from: '127.0.7.1', query: honestQuery(31001) });
      await waitFor(() => p2p.getConnectedPeers().length === 1, 2000, 'the peer listed');
      const stats = p2p.getNetworkStats();
      assert.equal(stats.incoming.connects, 1);
      assert.equal(stats.incoming.count, 1);
      assert.equal(stats.totalConnectedPeers, 1);
      assert.ok(stats.totalErrors >= 1, 'the listener error is counted');
      peer.ws.terminate();
      await waitFor(() => p2p.getNetworkStats().incoming.disconnects === 1, 2000, 'the disconnect counted');
    } finally {
      await p2p.stop();
    }
  });

  it('start twice and stop twice are refused, as @klayr/p2p refuses them', async () => {
    const p2p = await startKestrel({ hostIp: '127.0.0.2', port: randomPort() });
    await assert.rejects(p2p.start(), { message: 'Node cannot start because it is already active.' });
    await p2p.stop();
    await assert.rejects(p2p.stop(), { message: 'Node cannot be stopped because it is not active.' });
  });

  it('a peer that asks not to be advertised is not listed', async () => {
    const port = randomPort();
    const p2p = await startKestrel({ hostIp: '127.0.0.2', port });
    try {
      const peer = await handshakenRawPeer({
        host: '127.0.0.2',
        port,
        from: '127.0.7.2',
        query: honestQuery(31002, { advertiseAddress: false }),
      });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(p2p.getNetworkStats().incoming.count, 1);
      assert.deepEqual(p2p.getConnectedPeers(), []);
      assert.deepEqual(p2p.getDisconnectedPeers(), []);
      peer.ws.terminate();
    } finally {
      await p2p.stop();
    }
  });
});

describe('a peer that went away', () => {
  for (const dialer of ['kestrel', 'klayr'] as const) {
    it(`keeps the node info it last had, after failed redials (${dialer} dialling, @klayr/p2p the reference)`, async () => {
      const acceptorPort = randomPort();
      const acceptor = await startKestrel({ hostIp: '127.0.0.2', port: acceptorPort });
      const seedPeers = [{ ipAddress: '127.0.0.2', port: acceptorPort }];
      const node =
        dialer === 'kestrel'
          ? await startKestrel({ hostIp: '127.0.0.1', port: randomPort(), seedPeers })
          : await startKlayr({ hostIp: '127.0.0.1', port: randomPort(), seedPeers });
      const peerId = `127.0.0.2:${acceptorPort}`;
      // Kestrel lists a peer's node info under sharedState, @klayr/p2p's test helper flattened
      const listed = (p: { peerId: string; sharedState?: { chainID?: Buffer }; chainID?: Buffer }) =>
        p.peerId === peerId && (p.sharedState?.chainID ?? p.chainID)?.toString('hex') === '04000000';
      try {
        await waitFor(() => node.getConnectedPeers().some(listed), 5000, 'connected with its node info');
        await acceptor.stop();
        await waitFor(() => node.getConnectedPeers().length === 0, 5000, 'the peer closed');
        // seed discovery (every 500 ms here) dials it again and fails
        await new Promise((r) => setTimeout(r, 1500));
        assert.ok(node.getDisconnectedPeers().some(listed), JSON.stringify(node.getDisconnectedPeers()));
      } finally {
        await node.stop();
        if (acceptor.isActive) await acceptor.stop();
      }
    });
  }
});

describe('applyNodeInfo', () => {
  it('throws for a node info over 20,480 bytes, as @klayr/p2p does, and sends nothing', async () => {
    const port = randomPort();
    const p2p = await startKestrel({ hostIp: '127.0.0.2', port });
    try {
      const peer = await handshakenRawPeer({ host: '127.0.0.2', port, from: '127.0.7.3', query: honestQuery(31003) });
      const before = peer.frames.length;
      const huge = baseNodeInfo({ options: { ...nodeOptions(9), legacy: [Buffer.alloc(21_000)] } });
      assert.throws(() => p2p.applyNodeInfo(huge), {
        message: 'Invalid NodeInfo was larger than the maximum allowed 20480 bytes',
      });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(peer.frames.slice(before).filter((f) => f.includes('postNodeInfo')).length, 0);
      p2p.applyNodeInfo(baseNodeInfo({ options: nodeOptions(10) }));
      await waitFor(() => peer.frames.slice(before).some((f) => f.includes('postNodeInfo')), 2000, 'postNodeInfo');
      peer.ws.terminate();
    } finally {
      await p2p.stop();
    }
  });
});

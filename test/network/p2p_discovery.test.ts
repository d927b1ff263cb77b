// Peer discovery and connection management with the real @klayr/p2p on the other side: seeds retried until they
// answer, peers learnt through getPeers dialled by the populator, inbound eviction at the limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextEvent, randomPort, startKestrel, startKlayr, waitFor } from '../helpers/p2p.js';
import { closeCodeWithin, handshakenRawPeer, honestQuery, type RawPeer } from '../helpers/raw_peer.js';

describe('discovery', () => {
  it('a seed that is down at start is dialled again (fallback seed discovery) and connects once it is up', async () => {
    const klayrPort = randomPort();
    const kestrel = await startKestrel({
      hostIp: '127.0.0.2',
      port: randomPort(),
      seedPeers: [{ ipAddress: '127.0.0.1', port: klayrPort }],
    });
    const [, , code] = await nextEvent<[unknown, string, number]>(kestrel, 'peerClosed');
    assert.equal(code, 1006, 'the first dial finds nobody');
    const klayr = await startKlayr({ hostIp: '127.0.0.1', port: klayrPort });
    try {
      await waitFor(
        () => kestrel.getConnectedPeers().some((p) => p.peerId === `127.0.0.1:${klayrPort}`),
        5000,
        'Kestrel connected to the seed',
      );
    } finally {
      await kestrel.stop();
      await klayr.stop();
    }
  });

  it('a peer learnt from a seed with getPeers is dialled by the populator', async () => {
    const seedPort = randomPort();
    const otherPort = randomPort();
    const other = await startKlayr({ hostIp: '127.0.0.3', port: otherPort });
    const seed = await startKlayr({
      hostIp: '127.0.0.1',
      port: seedPort,
      seedPeers: [{ ipAddress: '127.0.0.3', port: otherPort }],
    });
    const kestrel = await startKestrel({
      hostIp: '127.0.0.2',
      port: randomPort(),
      seedPeers: [{ ipAddress: '127.0.0.1', port: seedPort }],
    });
    try {
      await waitFor(
        () => kestrel.getConnectedPeers().some((p) => p.peerId === `127.0.0.3:${otherPort}`),
        8000,
        'Kestrel connected to the peer it learnt from the seed',
      );
      const learnt = kestrel.getConnectedPeers().find((p) => p.peerId === `127.0.0.3:${otherPort}`);
      assert.equal(learnt?.internalState?.connectionKind, 'outbound');
      assert.equal(learnt?.internalState?.peerKind, 'none');
      assert.ok(kestrel.getNetworkStats().totalPeersDiscovered >= 1);
    } finally {
      await kestrel.stop();
      await seed.stop();
      await other.stop();
    }
  });
});

describe('inbound limit', () => {
  for (const kind of ['kestrel', 'klayr'] as const) {
    it(`${kind}: the 11th inbound peer over a limit of 10 evicts one unprotected peer with 4418`, async () => {
      const port = randomPort();
      const node =
        kind === 'kestrel'
          ? await startKestrel({ hostIp: '127.0.0.2', port, maxInboundConnections: 10 })
          : await startKlayr({ hostIp: '127.0.0.2', port, maxInboundConnections: 10 });
      const peers: RawPeer[] = [];
      try {
        for (let i = 1; i <= 11; i++) {
          peers.push(
            await handshakenRawPeer({
              host: '127.0.0.2',
              port,
              from: `127.0.${kind === 'kestrel' ? 5 : 6}.${i}`,
              query: honestQuery(30000 + i),
            }),
          );
          await new Promise((r) => setTimeout(r, 5)); // distinct connect times
        }
        const codes = await Promise.all(peers.map((p) => closeCodeWithin(p, 300)));
        assert.deepEqual(
          codes.filter((c) => c !== 'open'),
          [4418],
        );
        assert.equal(codes[10], 'open', 'the newcomer stays');
        assert.equal(node.getConnectedPeers().length, 10);
      } finally {
        for (const p of peers) p.ws.terminate();
        await node.stop();
      }
    });
  }
});

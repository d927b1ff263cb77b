// A Kestrel P2P server bound to the dual-stack host `::` takes IPv4 peers by their IPv4 address (not the mapped
// `::ffff:a.b.c.d` its sockets report): they pass the IPv4 handshake check, and bans and blacklisted IPs apply.
// (A dialer's connections leave from 127.0.0.1 whatever its own host, so that is the IP the acceptor sees.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { P2P } from '../../src/network/p2p/p2p.js';
import { remoteIP } from '../../src/network/p2p/transport/remote_ip.js';
import { nextEvent, randomPort, startKestrel, waitFor } from '../helpers/p2p.js';

const connectedIds = (node: P2P): string[] => node.getConnectedPeers().map((p) => p.peerId);

/** A node on `::` (with `acceptorConfig`) and a node on 127.0.0.1 that dials it at 127.0.0.2 as its seed. */
const dualStackPair = async (acceptorConfig: { blacklistedIPs?: string[] } = {}) => {
  const acceptorPort = randomPort();
  const dialerPort = randomPort();
  const acceptor = await startKestrel({ hostIp: '::', port: acceptorPort, ...acceptorConfig });
  const dialer = await startKestrel({
    hostIp: '127.0.0.1',
    port: dialerPort,
    seedPeers: [{ ipAddress: '127.0.0.2', port: acceptorPort }],
  });
  const stop = async () => {
    await dialer.stop();
    await acceptor.stop();
  };
  return { acceptor, dialer, dialerPort, stop };
};

/** The dialer's next dial is refused at the upgrade (HTTP 401: its close is 1006) and the acceptor holds no peer. */
const assertRefusedAtUpgrade = async (acceptor: P2P, dialer: P2P): Promise<void> => {
  const [, kind, code] = await nextEvent<[unknown, string, number]>(dialer, 'peerClosed', 5000);
  assert.deepEqual([kind, code], ['outbound', 1006]);
  assert.deepEqual(connectedIds(acceptor), []);
};

describe('a P2P server on the dual-stack host', () => {
  it('reads an IPv4-mapped remote address as the IPv4 address, and leaves others as they are', () => {
    assert.equal(remoteIP({ remoteAddress: '::ffff:127.0.0.3' }), '127.0.0.3');
    assert.equal(remoteIP({ remoteAddress: '::FFFF:10.1.2.3' }), '10.1.2.3');
    assert.equal(remoteIP({ remoteAddress: '127.0.0.3' }), '127.0.0.3');
    assert.equal(remoteIP({ remoteAddress: '::1' }), '::1');
    assert.equal(remoteIP({ remoteAddress: '::ffff:abcd:1' }), '::ffff:abcd:1');
    assert.equal(remoteIP({ remoteAddress: undefined }), '');
  });

  it('accepts an IPv4 peer under its IPv4 peer ID, and its ban refuses it again', async () => {
    const { acceptor, dialer, dialerPort, stop } = await dualStackPair();
    try {
      const dialerId = `127.0.0.1:${dialerPort}`;
      await waitFor(() => connectedIds(acceptor).includes(dialerId), 5000, 'the dialer accepted by its IPv4 peer ID');
      const closed = nextEvent(dialer, 'peerClosed', 5000);
      acceptor.applyPenalty({ peerId: dialerId, penalty: 100 });
      await closed;
      assert.equal(acceptor.peerBook.isBannedIP('127.0.0.1'), true);
      // seed discovery dials again
      await assertRefusedAtUpgrade(acceptor, dialer);
    } finally {
      await stop();
    }
  });

  it('refuses a blacklisted IPv4 address', async () => {
    const { acceptor, dialer, stop } = await dualStackPair({ blacklistedIPs: ['127.0.0.1'] });
    try {
      await assertRefusedAtUpgrade(acceptor, dialer);
    } finally {
      await stop();
    }
  });
});

// Refused connections as the refused side sees them (close code and reason), Kestrel against @klayr/p2p in both
// directions and @klayr/p2p against itself as the reference.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { P2P } from '../../src/network/p2p/p2p.js';
import { handshakeQuery } from '../../src/network/p2p/transport/handshake.js';
import { ConnectAbortError, openOutboundSocket } from '../../src/network/p2p/transport/outbound.js';
import type { NodeInfo } from '../../src/network/p2p/types.js';
import { baseNodeInfo, type KlayrP2PNode, nextEvent, randomPort, startKestrel, startKlayr } from '../helpers/p2p.js';

interface Close {
  readonly code: number;
  readonly reason: string;
}

type Side = 'kestrel' | 'klayr';
type Node = { kind: 'kestrel'; node: P2P } | { kind: 'klayr'; node: KlayrP2PNode };

const start = async (kind: Side, config: Record<string, unknown> & { hostIp: string; port: number }): Promise<Node> =>
  kind === 'kestrel'
    ? { kind, node: await startKestrel(config as Parameters<typeof startKestrel>[0]) }
    : { kind, node: await startKlayr(config) };

const stop = (n: Node): Promise<void> => n.node.stop();

/** The first outbound close the node reports. */
const nextOutboundClose = async (n: Node, timeoutMs = 5000): Promise<Close> => {
  if (n.kind === 'kestrel') {
    for (;;) {
      const [, kind, code, reason] = await nextEvent<[unknown, string, number, string]>(
        n.node,
        'peerClosed',
        timeoutMs,
      );
      if (kind === 'outbound') return { code, reason };
    }
  }
  const [packet] = await nextEvent<[{ code: number; reason: string }]>(n.node, 'EVENT_CLOSE_OUTBOUND', timeoutMs);
  return { code: packet.code, reason: packet.reason };
};

const pairs: [Side, Side][] = [
  ['klayr', 'kestrel'],
  ['kestrel', 'klayr'],
  ['klayr', 'klayr'],
];

/** `dialer` (on 127.0.0.1) dials `acceptor` (on 127.0.0.2) with its own node info; the dialer's first close. */
const refusedDial = async (
  dialerKind: Side,
  acceptorKind: Side,
  dialerInfo: Omit<NodeInfo, 'nonce'>,
): Promise<Close> => {
  const acceptorPort = randomPort();
  const acceptor = await start(acceptorKind, { hostIp: '127.0.0.2', port: acceptorPort });
  const dialer = await start(dialerKind, {
    hostIp: '127.0.0.1',
    port: randomPort(),
    ...(dialerKind === 'kestrel' ? { nodeInfo: dialerInfo } : { nodeInfo: { ...dialerInfo, nonce: '' } }),
    seedPeers: [{ ipAddress: '127.0.0.2', port: acceptorPort }],
  });
  try {
    return await nextOutboundClose(dialer);
  } finally {
    await stop(dialer);
    await stop(acceptor);
  }
};

describe('refused connections, seen by the refused side', () => {
  for (const [dialer, acceptor] of pairs) {
    it(`another chain ID: ${dialer} dialling ${acceptor} is closed with 4104`, async () => {
      const close = await refusedDial(dialer, acceptor, baseNodeInfo({ chainID: Buffer.from('05000000', 'hex') }));
      assert.deepEqual(close, { code: 4104, reason: 'Peer chainID did not match our own' });
    });

    it(`another major network version: ${dialer} dialling ${acceptor} is closed with 4104`, async () => {
      const close = await refusedDial(dialer, acceptor, baseNodeInfo({ networkVersion: '6.0' }));
      assert.deepEqual(close, { code: 4104, reason: 'Peer has incompatible protocol version' });
    });
  }

  it('a minor network version difference is accepted', async () => {
    const acceptorPort = randomPort();
    const acceptor = await start('klayr', { hostIp: '127.0.0.2', port: acceptorPort });
    const kestrel = await startKestrel({
      hostIp: '127.0.0.1',
      port: randomPort(),
      nodeInfo: baseNodeInfo({ networkVersion: '5.7' }),
      seedPeers: [{ ipAddress: '127.0.0.2', port: acceptorPort }],
    });
    try {
      const [, kind] = await nextEvent<[unknown, string]>(kestrel, 'peerConnected');
      assert.equal(kind, 'outbound');
    } finally {
      await kestrel.stop();
      await stop(acceptor);
    }
  });

  for (const kind of ['kestrel', 'klayr'] as const) {
    it(`${kind} dialling itself (its own nonce) is closed with 4101`, async () => {
      const port = randomPort();
      const node = await start(kind, { hostIp: '0.0.0.0', port, seedPeers: [{ ipAddress: '127.0.0.1', port }] });
      try {
        assert.deepEqual(await nextOutboundClose(node), { code: 4101, reason: 'Peer cannot connect to itself' });
      } finally {
        await stop(node);
      }
    });

    it(`a second connection with the same peer id to ${kind} is closed with 4404`, async () => {
      const port = randomPort();
      const node = await start(kind, { hostIp: '127.0.0.2', port });
      const query = handshakeQuery({ ...baseNodeInfo(), nonce: '0123456789abcdef' }, 31000);
      const dial = () =>
        openOutboundSocket({
          ipAddress: '127.0.0.2',
          port,
          query,
          maxPayload: 3048576,
          connectTimeoutMs: 2000,
          ackTimeoutMs: 2000,
        });
      const first = dial();
      await first.ready;
      const second = dial();
      try {
        await assert.rejects(second.ready, (error: unknown) => {
          assert.ok(error instanceof ConnectAbortError);
          assert.deepEqual(
            { code: error.code, reason: error.reason },
            { code: 4404, reason: 'Peer has a duplicate connection' },
          );
          return true;
        });
      } finally {
        first.socket.close(1000);
        await stop(node);
      }
    });
  }

  for (const [dialer, acceptor] of pairs) {
    it(`${acceptor} banning ${dialer}: the connection closes with 1000, a redial is refused at the upgrade (1006)`, async () => {
      const acceptorPort = randomPort();
      const dialerPort = randomPort();
      const acceptorNode = await start(acceptor, { hostIp: '127.0.0.2', port: acceptorPort });
      const dialerNode = await start(dialer, {
        hostIp: '127.0.0.1',
        port: dialerPort,
        seedPeers: [{ ipAddress: '127.0.0.2', port: acceptorPort }],
      });
      try {
        const dialerId = `127.0.0.1:${dialerPort}`;
        const deadline = Date.now() + 5000;
        const connected = (): boolean =>
          acceptorNode.node.getConnectedPeers().some((p: { peerId: string }) => p.peerId === dialerId);
        while (!connected() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.ok(connected(), 'dialer connected');
        const closed = nextOutboundClose(dialerNode);
        acceptorNode.node.applyPenalty({ peerId: dialerId, penalty: 100 });
        assert.equal((await closed).code, 1000);
        // the dialer's seed discovery dials again and meets HTTP 401
        assert.equal((await nextOutboundClose(dialerNode)).code, 1006);
      } finally {
        await stop(dialerNode);
        await stop(acceptorNode);
      }
    });
  }
});

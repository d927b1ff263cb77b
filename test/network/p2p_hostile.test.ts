// A hostile raw WebSocket client against @klayr/p2p's peer server and Kestrel's, side by side: each abuse must end
// the same way on both (close code seen by the client, IP banned or not, frames answered), Kestrel stays up and
// keeps serving an honest peer. Every abuse comes from a loopback address of its own, so bans do not mix.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeNodeInfo } from '../../src/network/p2p/node_info.js';
import type { P2P } from '../../src/network/p2p/p2p.js';
import { baseNodeInfo, type KlayrP2PNode, randomPort, startKestrel, startKlayr } from '../helpers/p2p.js';
import {
  closeCodeWithin,
  handshakenRawPeer,
  honestQuery,
  isRefused,
  openRawPeer,
  type RawPeer,
} from '../helpers/raw_peer.js';

interface Outcome {
  readonly code: number | 'open';
  readonly banned: boolean;
}

interface Abuse {
  readonly name: string;
  readonly act: (peer: RawPeer) => void;
  readonly expected: Outcome;
  /** Where Kestrel knowingly differs. */
  readonly expectedOnKestrel?: Outcome;
  readonly waitMs?: number;
}

const remoteMessage = (event: string) => ({ event: 'remote-message', data: { event } });
const postNodeInfo = (data: string) => ({ event: 'remote-message', data: { event: 'postNodeInfo', data } });
const validNodeInfo = encodeNodeInfo({ ...baseNodeInfo(), nonce: '0011223344556677' }).toString('base64');

const abuses: Abuse[] = [
  { name: 'a frame that is not JSON', act: (p) => p.ws.send('hello'), expected: { code: 1006, banned: true } },
  {
    name: 'a packet with a property the packet schema lacks',
    act: (p) => p.sendJSON({ ...remoteMessage('postBlock'), extra: 1 }),
    expected: { code: 1006, banned: true },
  },
  {
    name: 'a packet whose data is not an object',
    act: (p) => p.sendJSON({ event: 'remote-message', data: 'x' }),
    expected: { code: 1006, banned: true },
  },
  {
    name: 'a batch (JSON array)',
    act: (p) => p.sendJSON([remoteMessage('a')]),
    expected: { code: 1006, banned: true },
  },
  {
    name: 'the forbidden SocketCluster event #subscribe',
    act: (p) => p.sendJSON({ event: '#subscribe', data: { channel: 'x' }, cid: 2 }),
    expected: { code: 1006, banned: true },
  },
  {
    name: 'the forbidden SocketCluster event #publish',
    act: (p) => p.sendJSON({ event: '#publish', data: { channel: 'x', data: {} } }),
    expected: { code: 1006, banned: true },
  },
  {
    name: 'an event name over 128 characters',
    act: (p) => p.sendJSON({ event: 'e'.repeat(129), data: {} }),
    expected: { code: 1006, banned: true },
  },
  { name: 'a WebSocket ping frame', act: (p) => p.ws.ping(), expected: { code: 1006, banned: true } },
  { name: 'a WebSocket pong frame', act: (p) => p.ws.pong(), expected: { code: 1006, banned: true } },
  {
    name: 'eleven #disconnect events in a second',
    act: (p) => {
      for (let i = 0; i < 11; i++) p.sendJSON({ event: '#disconnect', data: { code: 1000 } });
    },
    expected: { code: 1006, banned: true },
  },
  {
    name: 'a frame over wsMaxPayload',
    act: (p) =>
      p.ws.send(JSON.stringify({ event: 'remote-message', data: { event: 'x', data: 'A'.repeat(3_048_577) } })),
    // ws 7 (socketcluster-server) drops the connection; ws 8 sends the close frame 1009 "Message too big" first
    expected: { code: 1006, banned: false },
    expectedOnKestrel: { code: 1009, banned: false },
  },
  {
    name: 'fourteen postNodeInfo in 10 s (penalty 10 for each beyond 4)',
    act: (p) => {
      for (let i = 0; i < 14; i++) p.sendJSON(postNodeInfo(validNodeInfo));
    },
    expected: { code: 1000, banned: true },
  },
  {
    name: 'an undecodable postNodeInfo (penalty 100)',
    act: (p) => p.sendJSON(postNodeInfo('AAAA')),
    expected: { code: 1000, banned: true },
  },
  {
    name: 'a getPeers request with data (penalty 100)',
    act: (p) => p.sendJSON({ event: 'rpc-request', data: { procedure: 'getPeers', data: 'AAAA' }, cid: 2 }),
    expected: { code: 1000, banned: true },
  },
  {
    name: 'a flood of 1,000 messages in a second (rate penalty 100)',
    act: (p) => {
      for (let i = 0; i < 1000; i++) p.sendJSON(remoteMessage('postTransactionsAnnouncement'));
    },
    expected: { code: 1000, banned: true },
    waitMs: 2500,
  },
];

describe('a hostile client, against @klayr/p2p and Kestrel alike', () => {
  let klayr: KlayrP2PNode;
  let kestrel: P2P;
  const klayrTarget = { host: '127.0.0.1', port: randomPort() };
  const kestrelTarget = { host: '127.0.0.2', port: randomPort() };

  before(async () => {
    klayr = await startKlayr({ hostIp: klayrTarget.host, port: klayrTarget.port });
    kestrel = await startKestrel({ hostIp: kestrelTarget.host, port: kestrelTarget.port });
  });

  after(async () => {
    await kestrel.stop();
    await klayr.stop();
  });

  const outcome = async (target: typeof klayrTarget, from: string, abuse: Abuse): Promise<Outcome> => {
    const peer = await handshakenRawPeer({ ...target, from });
    abuse.act(peer);
    const code = await closeCodeWithin(peer, abuse.waitMs ?? 1500);
    if (code === 'open') peer.ws.terminate();
    return { code, banned: await isRefused({ ...target, from }) };
  };

  abuses.forEach((abuse, i) => {
    it(`${abuse.name}: ${abuse.expected.banned ? 'banned' : 'not banned'}`, async () => {
      const [onKlayr, onKestrel] = await Promise.all([
        outcome(klayrTarget, `127.0.1.${i + 1}`, abuse),
        outcome(kestrelTarget, `127.0.2.${i + 1}`, abuse),
      ]);
      assert.deepEqual(onKlayr, abuse.expected, '@klayr/p2p');
      assert.deepEqual(onKestrel, abuse.expectedOnKestrel ?? abuse.expected, 'Kestrel');
    });
  });

  it('an rpc-request with an invalid payload gets the same error answer, no ban', async () => {
    const frames = await Promise.all(
      [klayrTarget, kestrelTarget].map(async (target, i) => {
        const peer = await handshakenRawPeer({ ...target, from: `127.0.3.${i + 1}` });
        peer.sendJSON({ event: 'rpc-request', data: { procedure: 5 }, cid: 2 });
        await new Promise((r) => setTimeout(r, 300));
        peer.ws.terminate();
        return peer.frames.filter((f) => f.startsWith('{"rid":2'));
      }),
    );
    assert.deepEqual(frames[0], ['{"rid":2,"error":{"message":"RPC request format is invalid."}}']);
    assert.deepEqual(frames[1], frames[0]);
  });

  it('a second getNodeInfo within a second is left unanswered, as @klayr/p2p does', async () => {
    const answered = await Promise.all(
      [klayrTarget, kestrelTarget].map(async (target, i) => {
        const peer = await handshakenRawPeer({ ...target, from: `127.0.3.${i + 11}` });
        peer.sendJSON({ event: 'rpc-request', data: { procedure: 'getNodeInfo' }, cid: 2 });
        peer.sendJSON({ event: 'rpc-request', data: { procedure: 'getNodeInfo' }, cid: 3 });
        await new Promise((r) => setTimeout(r, 400));
        peer.ws.terminate();
        return peer.frames
          .filter((f) => f.startsWith('{"rid":'))
          .map((f) => (JSON.parse(f) as { rid: number }).rid)
          .filter((rid) => rid !== 1);
      }),
    );
    assert.deepEqual(answered, [[2], [2]]);
  });

  it('a handshake for another chain is refused with the same #disconnect frame and code 4104', async () => {
    const results = await Promise.all(
      [klayrTarget, kestrelTarget].map(async (target, i) => {
        const peer = await openRawPeer({
          ...target,
          from: `127.0.3.${i + 21}`,
          query: honestQuery(30001, { chainID: '05000000' }),
        });
        peer.sendJSON({ event: '#handshake', data: { authToken: null }, cid: 1 });
        const code = await closeCodeWithin(peer, 1500);
        return { code, frames: peer.frames, banned: await isRefused({ ...target, from: `127.0.3.${i + 21}` }) };
      }),
    );
    const expected = '{"event":"#disconnect","data":{"code":4104,"data":"Peer chainID did not match our own"}}';
    assert.deepEqual(results[0], { code: 4104, frames: [expected], banned: false });
    assert.deepEqual(results[1], results[0]);
  });

  it('Kestrel still serves an honest peer after all of this', async () => {
    const peer = await handshakenRawPeer({ ...kestrelTarget, from: '127.0.4.1' });
    peer.sendJSON({ event: 'rpc-request', data: { procedure: 'getNodeInfo' }, cid: 2 });
    const deadline = Date.now() + 2000;
    while (!peer.frames.some((f) => f.startsWith('{"rid":2')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    peer.ws.terminate();
    const answer = JSON.parse(peer.frames.find((f) => f.startsWith('{"rid":2')) ?? '{}') as {
      data?: { data?: string };
    };
    assert.ok(answer.data?.data, 'getNodeInfo answered');
    assert.ok(kestrel.getNetworkStats().banning.count >= 10);
  });
});

// A Kestrel node following an honest Kestrel generator while hostile peers, each from a loopback address of its own,
// abuse it: it stays up, keeps following its honest peer, and bans each hostile IP as Klayr does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postBlockEventSchema } from '../../src/lib/chain/p2p_schemas.js';
import { compile } from '../../src/lib/codec/index.js';
import { devValidators } from '../helpers/devnet.js';
import { blockIDAt, call, kestrelPeer, nodeInfo, waitFor } from '../helpers/klayr_peer_world.js';
import type { RawPeer } from '../helpers/raw_peer.js';
import { handshakenRawPeer, honestQuery, isRefused } from '../helpers/raw_peer.js';

const GENERATOR = '127.0.0.1';
const FOLLOWER = '127.0.0.2';

const message = (event: string, data?: Buffer) => ({
  event: 'remote-message',
  data: { event, ...(data !== undefined ? { data: data.toString('base64') } : {}) },
});
const request = (procedure: string, cid: number, data?: Buffer) => ({
  event: 'rpc-request',
  data: { procedure, ...(data !== undefined ? { data: data.toString('base64') } : {}) },
  cid,
});

const abuses: { name: string; from: string; act: (peer: RawPeer) => void }[] = [
  { name: 'a frame that is not JSON', from: '127.0.0.11', act: (p) => p.ws.send('{not json') },
  {
    name: 'a packet with an extra property',
    from: '127.0.0.12',
    act: (p) => p.sendJSON({ ...message('postBlock'), extra: true }),
  },
  { name: 'an unknown procedure', from: '127.0.0.13', act: (p) => p.sendJSON(request('getSecrets', 2)) },
  { name: 'an unknown event', from: '127.0.0.14', act: (p) => p.sendJSON(message('postSecrets', Buffer.alloc(4))) },
  {
    name: 'an invalid block',
    from: '127.0.0.15',
    act: (p) =>
      p.sendJSON(message('postBlock', compile(postBlockEventSchema).encode({ block: Buffer.from('not a block') }))),
  },
  {
    name: 'a message flood',
    from: '127.0.0.16',
    act: (p) => {
      for (let i = 0; i < 400; i++) p.sendJSON(message('postNodeInfo', Buffer.alloc(2)));
    },
  },
];

describe('a hostile peer against a following node', { timeout: 240_000 }, () => {
  it('the node stays alive, keeps following its honest peer and bans each hostile IP', async () => {
    const generator = await kestrelPeer({ host: GENERATOR, keys: devValidators() });
    const follower = await kestrelPeer({
      host: FOLLOWER,
      keys: [],
      seeds: [{ ip: GENERATOR, port: generator.p2pPort }],
    });
    try {
      await waitFor('the follower at height 2', 90_000, async () =>
        (await nodeInfo(follower.rpcPort)).height >= 2 ? true : undefined,
      );
      const target = { host: FOLLOWER, port: follower.p2pPort };
      for (const abuse of abuses) {
        const peer = await handshakenRawPeer({ ...target, from: abuse.from, query: honestQuery(40000) });
        abuse.act(peer);
        await waitFor(`a ban after ${abuse.name}`, 10_000, async () =>
          (await isRefused({ ...target, from: abuse.from })) ? true : undefined,
        );
        peer.ws.terminate();
      }
      // a wrong-chain handshake is refused at once
      const wrongChain = await handshakenRawPeer({
        ...target,
        from: '127.0.0.17',
        query: honestQuery(40000, { chainID: '05000000' }),
      }).then(
        () => false,
        () => true,
      );
      assert.ok(wrongChain, 'another chain ID is refused');
      const stats = await call<{ banning: { count: number } }>(follower.rpcPort, 'network_getStats');
      assert.ok(stats.banning.count >= abuses.length, JSON.stringify(stats.banning));
      // still following: new blocks arrive and the chains agree
      const before = (await nodeInfo(follower.rpcPort)).height;
      const after = await waitFor('the follower to follow two more blocks', 60_000, async () => {
        const h = (await nodeInfo(follower.rpcPort)).height;
        return h >= before + 2 ? h : undefined;
      });
      assert.equal(await blockIDAt(follower.rpcPort, after), await blockIDAt(generator.rpcPort, after));
      const peers = await call<{ ipAddress: string }[]>(follower.rpcPort, 'network_getConnectedPeers');
      assert.ok(
        peers.some((p) => p.ipAddress === GENERATOR),
        JSON.stringify(peers),
      );
    } finally {
      await Promise.all([follower.node.stop(), generator.node.stop()]);
    }
  });
});

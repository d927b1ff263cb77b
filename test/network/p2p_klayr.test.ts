// Kestrel's P2P against @klayr/p2p's real P2P (configured as klayr-framework's Network): each dials the other,
// exchanges node info, requests, messages and postNodeInfo.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { P2P } from '../../src/network/p2p/p2p.js';
import type { IncomingMessage, IncomingRequest } from '../../src/network/p2p/types.js';
import {
  baseNodeInfo,
  type KlayrP2PNode,
  type KlayrRequest,
  nextEvent,
  nodeOptions,
  randomPort,
  startKestrel,
  startKlayr,
  waitFor,
} from '../helpers/p2p.js';

const KLAYR_IP = '127.0.0.1';
const KESTREL_IP = '127.0.0.2';

describe('Kestrel P2P dials a @klayr/p2p node', () => {
  let klayr: KlayrP2PNode;
  let kestrel: P2P;
  const klayrPort = randomPort();
  const kestrelPort = randomPort();
  const klayrPeerId = `${KLAYR_IP}:${klayrPort}`;
  // Kestrel dials out from 127.0.0.1 (loopback's default source), announcing its port
  const kestrelSeenByKlayr = `${KLAYR_IP}:${kestrelPort}`;

  before(async () => {
    klayr = await startKlayr({ hostIp: KLAYR_IP, port: klayrPort });
    kestrel = await startKestrel({
      hostIp: KESTREL_IP,
      port: kestrelPort,
      seedPeers: [{ ipAddress: KLAYR_IP, port: klayrPort }],
    });
    await waitFor(
      () =>
        kestrel.getConnectedPeers().some((p) => p.peerId === klayrPeerId && p.sharedState !== undefined) &&
        klayr.getConnectedPeers().some((p) => p.peerId === kestrelSeenByKlayr && p.options?.height !== undefined),
      8000,
      'both sides connected with node info',
    );
  });

  after(async () => {
    await kestrel.stop();
    await klayr.stop();
  });

  it('Kestrel holds the Klayr node info it fetched with getNodeInfo', () => {
    const peer = kestrel.getConnectedPeers().find((p) => p.peerId === klayrPeerId);
    assert.ok(peer?.sharedState);
    assert.equal(peer.internalState?.connectionKind, 'outbound');
    assert.equal(peer.internalState?.peerKind, 'seedPeer');
    assert.deepEqual(peer.sharedState.chainID, klayr.nodeInfo.chainID);
    assert.equal(peer.sharedState.networkVersion, klayr.nodeInfo.networkVersion);
    assert.equal(peer.sharedState.nonce, klayr.nodeInfo.nonce);
    assert.deepEqual(peer.sharedState.options, klayr.nodeInfo.options);
  });

  it('Klayr decodes the node info Kestrel posted (postNodeInfo on connect)', () => {
    const peer = klayr.getConnectedPeers().find((p) => p.peerId === kestrelSeenByKlayr);
    assert.ok(peer);
    assert.deepEqual(peer.chainID, kestrel.nodeInfo.chainID);
    assert.equal(peer.networkVersion, kestrel.nodeInfo.networkVersion);
    assert.equal(peer.nonce, kestrel.nodeInfo.nonce);
    assert.deepEqual(peer.options, kestrel.nodeInfo.options);
  });

  it('Kestrel moved the seed to its tried peers', () => {
    assert.deepEqual(kestrel.getTriedPeers(), [{ ipAddress: KLAYR_IP, port: klayrPort }]);
  });

  it('a request from Kestrel is answered by Klayr', async () => {
    const answer = Buffer.from('last block bytes');
    const onRequest = (request: KlayrRequest): void => {
      if (request.procedure === 'getLastBlock') request.end(answer);
    };
    klayr.on('EVENT_REQUEST_RECEIVED', onRequest);
    const response = await kestrel.request('getLastBlock');
    klayr.off('EVENT_REQUEST_RECEIVED', onRequest);
    assert.deepEqual(response.data, answer);
    assert.equal(response.peerId, klayrPeerId);
  });

  it('a request from Klayr with data is answered by Kestrel, with the rate Klayr counts', async () => {
    const onRequest = (request: IncomingRequest): void => {
      if (request.procedure === 'getBlocksFromId')
        request.end(Buffer.concat([Buffer.from('re:'), request.data ?? Buffer.alloc(0)]));
    };
    kestrel.on('requestReceived', onRequest);
    const response = await klayr.requestFromPeer(
      { procedure: 'getBlocksFromId', data: Buffer.from('abc') },
      kestrelSeenByKlayr,
    );
    kestrel.off('requestReceived', onRequest);
    assert.deepEqual(response.data, Buffer.from('re:abc'));
  });

  it('an error answer from Kestrel reaches Klayr as an error with its message', async () => {
    const onRequest = (request: IncomingRequest): void => request.error(new Error('not permitted'));
    kestrel.once('requestReceived', onRequest);
    await assert.rejects(
      klayr.requestFromPeer({ procedure: 'getTransactions' }, kestrelSeenByKlayr),
      (error: Error) => error.message === 'not permitted',
    );
  });

  it('messages go both ways, with data and without', async () => {
    const toKestrel = nextEvent<[IncomingMessage]>(kestrel, 'messageReceived');
    klayr.sendToPeer({ event: 'postBlock', data: Buffer.from('block') }, kestrelSeenByKlayr);
    const [received] = await toKestrel;
    assert.equal(received.event, 'postBlock');
    assert.deepEqual(received.data, Buffer.from('block'));
    assert.equal(received.peerId, klayrPeerId);

    const toKlayr = nextEvent<[{ event: string; data?: Buffer; peerId: string }]>(klayr, 'EVENT_MESSAGE_RECEIVED');
    kestrel.sendToPeer('postTransactionsAnnouncement', undefined, klayrPeerId);
    const [message] = await toKlayr;
    assert.equal(message.event, 'postTransactionsAnnouncement');
    assert.equal(message.data, undefined);
  });

  it('broadcasts reach the other side', async () => {
    const toKlayr = nextEvent<[{ event: string; data?: Buffer }]>(klayr, 'EVENT_MESSAGE_RECEIVED');
    kestrel.broadcast('postSingleCommitMessages', Buffer.from([1, 2, 3]));
    assert.deepEqual((await toKlayr)[0].data, Buffer.from([1, 2, 3]));
    const toKestrel = nextEvent<[IncomingMessage]>(kestrel, 'messageReceived');
    klayr.broadcast({ event: 'postBlock', data: Buffer.from([4]) });
    assert.deepEqual((await toKestrel)[0].data, Buffer.from([4]));
  });

  it('applyNodeInfo reaches the other side as postNodeInfo, both ways', async () => {
    kestrel.applyNodeInfo(baseNodeInfo({ options: nodeOptions(5) }));
    await waitFor(
      () => klayr.getConnectedPeers().find((p) => p.peerId === kestrelSeenByKlayr)?.options?.height === 5,
      3000,
      'Klayr to see height 5',
    );
    const updated = nextEvent(kestrel, 'peerInfoUpdated');
    klayr.applyNodeInfo(baseNodeInfo({ options: nodeOptions(7) }));
    await updated;
    const peer = kestrel.getConnectedPeers().find((p) => p.peerId === klayrPeerId);
    assert.deepEqual(peer?.sharedState?.options, nodeOptions(7));
  });
});

describe('a @klayr/p2p node dials Kestrel', () => {
  let klayr: KlayrP2PNode;
  let kestrel: P2P;
  const klayrPort = randomPort();
  const kestrelPort = randomPort();

  before(async () => {
    kestrel = await startKestrel({
      hostIp: KESTREL_IP,
      port: kestrelPort,
      previousPeers: [{ ipAddress: '127.0.0.9', port: 4321 }],
    });
    klayr = await startKlayr({
      hostIp: KLAYR_IP,
      port: klayrPort,
      seedPeers: [{ ipAddress: KESTREL_IP, port: kestrelPort }],
    });
  });

  after(async () => {
    await klayr.stop();
    await kestrel.stop();
  });

  it('connects outbound, gets Kestrel node info with getNodeInfo and its peers with getPeers', async () => {
    const kestrelId = `${KESTREL_IP}:${kestrelPort}`;
    await waitFor(
      () => klayr.getConnectedPeers().some((p) => p.peerId === kestrelId && p.nonce === kestrel.nodeInfo.nonce),
      8000,
      'Klayr connected to Kestrel',
    );
    const peer = klayr.getConnectedPeers().find((p) => p.peerId === kestrelId);
    assert.deepEqual(peer?.options, kestrel.nodeInfo.options);
    // the peer Kestrel knew from its previous run came through getPeers
    await waitFor(
      () => klayr.getDisconnectedPeers().some((p) => p.peerId === '127.0.0.9:4321'),
      3000,
      'Klayr to learn 127.0.0.9:4321',
    );
    const inbound = kestrel.getConnectedPeers().find((p) => p.internalState?.connectionKind === 'inbound');
    assert.equal(inbound?.peerId, `${KLAYR_IP}:${klayrPort}`);
    assert.deepEqual(inbound?.sharedState?.options, klayr.nodeInfo.options);
  });
});

// Block synchronization from several peers of the same chain: batches spread over them, a peer that stalls or lies
// set aside (a liar banned) and its batch fetched from another; with one peer, Klayr's behaviour.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchPeers } from '../../src/engine/sync/batch_peers.js';
import { BlockSynchronization } from '../../src/engine/sync/block_synchronization.js';
import { AbortError, ApplyPenaltyAndAbortError, ApplyPenaltyAndRestartError } from '../../src/engine/sync/errors.js';
import type { MechanismPeerBlocks } from '../../src/engine/sync/mechanism.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { PENALTY_BAN } from '../../src/lib/chain/p2p_penalties.js';
import { chainFrom, idOf, ids, MemoryChain, peerServing } from '../helpers/sync_fakes.js';

type Peer = ReturnType<typeof peerServing>;

const blockID = (block: Block): Buffer => blockHeaderID(block.header);

/** Several fake peers: requests go to the one named, each recorded as `peer procedure`; penalties recorded. */
const network = (peers: readonly Peer[]) => {
  const byId = new Map(peers.map((peer) => [peer.info.peerId, peer]));
  const requests: string[] = [];
  const penalties: { peerId: string; penalty: number }[] = [];
  const to = (peerId: string, procedure: string): MechanismPeerBlocks => {
    const peer = byId.get(peerId);
    if (peer === undefined) throw new Error(`not connected: ${peerId}`);
    requests.push(`${peerId} ${procedure}`);
    return peer.peerBlocks;
  };
  const peerBlocks: MechanismPeerBlocks = {
    lastBlock: (peerId) => to(peerId, 'getLastBlock').lastBlock(peerId),
    highestCommonBlock: (peerId, blockIDs) => to(peerId, 'getHighestCommonBlock').highestCommonBlock(peerId, blockIDs),
    blocksFrom: (peerId, fromID) => to(peerId, 'getBlocksFromId').blocksFrom(peerId, fromID),
  };
  const blocksFromBy = (): string[] =>
    requests.filter((r) => r.endsWith('getBlocksFromId')).map((r) => r.split(' ')[0] as string);
  return { peerBlocks, requests, penalties, blocksFromBy };
};

/** Block synchronization over `peers`, the first of them the best peer (a failed last peer asked again at once unless `retryMs`). */
const syncOver = (chain: MemoryChain, peers: readonly Peer[], retryMs = 0) => {
  const net = network(peers);
  const mechanism = new BlockSynchronization({
    chain,
    peerBlocks: net.peerBlocks,
    peers: {
      connectedPeers: () => peers.map((peer) => peer.info),
      applyPenalty: (peerId, penalty) => net.penalties.push({ peerId, penalty }),
    },
    // the first of the group
    random: () => 0,
    lastPeerRetryMs: retryMs,
  });
  return { mechanism, ...net };
};

/** A fresh chain (genesis only) and a peer chain of `length` blocks served by peers `names`. */
const world = (length: number, names: readonly string[]) => {
  const genesis = chainFrom([], 0, 0);
  const ours = new MemoryChain(genesis);
  const theirs = chainFrom(genesis, length, 2);
  const peers = names.map((name) => peerServing(ours, theirs, undefined, name));
  return { genesis, ours, theirs, peers };
};

/** `peer` answering getBlocksFromId with `answer` from now on. */
const answering = (peer: Peer, answer: MechanismPeerBlocks['blocksFrom']): void => {
  peer.peerBlocks.blocksFrom = answer;
};

describe('BatchPeers', () => {
  it('names the peers in turn: the best first, then those on its chain', () => {
    const peers = new BatchPeers('b', () => ['a', 'b', 'c']);
    assert.deepEqual(
      Array.from({ length: 5 }, () => peers.next()),
      ['b', 'a', 'c', 'b', 'a'],
    );
  });

  it('takes in a peer that announces the chain later', () => {
    const sameChain = ['a'];
    const peers = new BatchPeers('a', () => sameChain);
    assert.deepEqual([peers.next(), peers.next()], ['a', 'a']);
    sameChain.push('b');
    assert.deepEqual([peers.next(), peers.next(), peers.next()], ['a', 'b', 'a']);
  });

  it('sets a peer aside for good while another is left, never the last one; the turns go on from the next peer', () => {
    const peers = new BatchPeers('a', () => ['a', 'b', 'c']);
    assert.equal(peers.next(), 'a');
    assert.equal(peers.setAside('a'), true);
    assert.equal(peers.next(), 'b');
    assert.equal(peers.setAside('c'), true);
    assert.deepEqual([peers.next(), peers.next()], ['b', 'b'], 'a and c, still named on the chain, stay out');
    assert.equal(peers.setAside('b'), false, 'the last peer stays');
    assert.deepEqual(peers.peerIds, ['b']);
    assert.equal(peers.setAside('a'), true, 'a peer already set aside is out');
  });
});

describe('BlockSynchronizationMechanism with several peers of the same chain', () => {
  it('spreads the batches over the peers in turn', async () => {
    const { ours, theirs, peers } = world(230, ['a', 'b']);
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[220] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 221)));
    // 53-block batches: 1..53, 54..106, 107..159, 160..212, 213..220
    assert.deepEqual(sync.blocksFromBy(), ['a', 'b', 'a', 'b', 'a']);
    assert.deepEqual(sync.penalties, []);
  });

  it('asks the peers announcing the best peer’s tip or the received block, not those announcing another tip', async () => {
    const { genesis, ours, theirs, peers } = world(230, ['a', 'b']);
    const received = theirs[220] as Block;
    // c announces the received block (its tip is lower than the best peer's), d another chain's tip
    const c = peerServing(ours, theirs, received, 'c');
    const d = peerServing(ours, chainFrom(genesis, 230, 5), undefined, 'd');
    const sync = syncOver(ours, [...peers, c, d]);
    await sync.mechanism.run(received);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 221)));
    assert.deepEqual(sync.blocksFromBy(), ['a', 'b', 'c', 'a', 'b']);
  });

  it('takes in a peer that announces the best peer’s tip only after the best peer moved on to it', async () => {
    const { ours, theirs } = world(230, []);
    const received = theirs[220] as Block;
    // the best peer announces block 225, c (a block behind it) 224: neither the received block nor the best's tip
    const a = peerServing(ours, theirs, theirs[225], 'a');
    const c = peerServing(ours, theirs, theirs[224], 'c');
    const served = a.peerBlocks.blocksFrom;
    answering(a, async (peerId, fromID) => {
      // both on block 226 now, as a generator and its follower a moment later
      for (const peer of [a, c])
        Object.assign(peer.info, { options: { ...peer.info.options, lastBlockID: blockID(theirs[226] as Block) } });
      return served(peerId, fromID);
    });
    const sync = syncOver(ours, [a, c]);
    await sync.mechanism.run(received);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 221)));
    assert.deepEqual(sync.blocksFromBy(), ['a', 'a', 'c', 'a', 'c'], 'c in the turns from the batch after the move');
  });

  it('replaces a peer whose request times out: the batch comes from another, the peer is asked no more', async () => {
    const { ours, theirs, peers } = world(230, ['a', 'b', 'c']);
    answering(peers[1] as Peer, async () => {
      await new Promise((r) => setTimeout(r, 20));
      throw new Error('Request timed out');
    });
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[220] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 221)));
    assert.deepEqual(sync.blocksFromBy(), ['a', 'b', 'c', 'a', 'c', 'a']);
    assert.deepEqual(sync.penalties, [], 'as Klayr: one unanswered request is not penalised');
  });

  it('bans and replaces a peer whose blocks do not build on the requested block', async () => {
    const { genesis, ours, theirs, peers } = world(160, ['a', 'b']);
    const other = chainFrom(genesis, 160, 3);
    // b answers with another chain's blocks, which do not build on the block asked for
    answering(peers[1] as Peer, async () => other.slice(54, 107));
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[150] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 151)));
    assert.deepEqual(sync.penalties, [{ peerId: 'b', penalty: PENALTY_BAN }]);
    assert.deepEqual(sync.blocksFromBy(), ['a', 'b', 'a', 'a']);
  });

  it('bans and replaces a peer whose blocks do not decode', async () => {
    const { ours, theirs, peers } = world(160, ['a', 'b']);
    answering(peers[1] as Peer, async (peerId) => {
      throw new ApplyPenaltyAndAbortError(peerId, 'Undecodable blocks: truncated');
    });
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[150] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 151)));
    assert.deepEqual(sync.penalties, [{ peerId: 'b', penalty: PENALTY_BAN }]);
    assert.deepEqual(sync.blocksFromBy(), ['a', 'b', 'a', 'a']);
  });

  it('bans and replaces a peer that skips a block', async () => {
    const { ours, theirs, peers } = world(160, ['a', 'b']);
    const honest = (peers[1] as Peer).peerBlocks.blocksFrom;
    answering(peers[1] as Peer, async (peerId, fromID) => (await honest(peerId, fromID)).filter((_, i) => i !== 3));
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[150] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 151)));
    assert.deepEqual(sync.penalties, [{ peerId: 'b', penalty: PENALTY_BAN }]);
  });

  it('bans and replaces a peer whose blocks break their own rules', async () => {
    const { ours, theirs, peers } = world(160, ['a', 'b']);
    // a block of the same height that builds on the requested one, but is invalid
    const forged = chainFrom(theirs.slice(0, 54), 53, 9);
    ours.invalid.add(idOf(forged[60] as Block));
    answering(peers[1] as Peer, async () => forged.slice(54, 107));
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[150] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 151)));
    assert.deepEqual(sync.penalties, [{ peerId: 'b', penalty: PENALTY_BAN }]);
  });

  it('penalises the best peer, not the last one left, when nobody can serve the blocks after the common block it named', async () => {
    const genesis = chainFrom([], 0, 0);
    const theirs = chainFrom(genesis, 160, 2);
    // this chain forked from theirs after block 30 and has ten blocks of its own
    const before = chainFrom(theirs.slice(0, 31), 10, 7);
    const ours = new MemoryChain([...before]);
    const [liar, honest] = ['liar', 'b'].map((name) => peerServing(ours, theirs, undefined, name)) as [Peer, Peer];
    // the best peer names this chain's tip, a block of its own fork, as the highest common block
    liar.peerBlocks.highestCommonBlock = async () => (before[before.length - 1] as Block).header;
    const sync = syncOver(ours, [liar, honest]);
    await assert.rejects(
      () => sync.mechanism.run(theirs[150] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'liar',
    );
    assert.deepEqual(sync.blocksFromBy().slice(0, 2), ['liar', 'b']);
    assert.deepEqual(ids(ours.blocks), ids(before));
  });

  it('ends without a penalty when the peers have served their whole chain and the received block is not on it', async () => {
    const { genesis, ours, theirs, peers } = world(60, ['a', 'b']);
    const elsewhere = chainFrom(genesis, 60, 5)[50] as Block;
    const sync = syncOver(ours, peers);
    await assert.rejects(
      () => sync.mechanism.run(elsewhere),
      (e) => e instanceof AbortError && /not on the chain of the peers/.test(e.reason),
    );
    assert.deepEqual(ids(ours.blocks), ids(theirs), 'synchronized up to their tip');
    assert.deepEqual(sync.penalties, []);
  });

  it('keeps the best peer in the turns after one failed request: the peer that stalls is set aside, nobody banned', async () => {
    const { ours, theirs, peers } = world(160, ['a', 'b']);
    const [a, b] = peers as [Peer, Peer];
    const served = a.peerBlocks.blocksFrom;
    let failures = 1;
    answering(a, async (peerId, fromID) => {
      if (failures-- > 0) throw new Error('Request timed out');
      return served(peerId, fromID);
    });
    answering(b, async () => {
      throw new Error('Request timed out');
    });
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[150] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 151)));
    assert.deepEqual(sync.penalties, []);
    assert.deepEqual(sync.blocksFromBy().slice(0, 3), ['a', 'b', 'a']);
  });

  it('counts the failures of a peer that announces this chain’s tip with a greater height (how it became the best peer), and bans it at ten', async () => {
    const { genesis, ours, theirs, peers } = world(60, ['a']);
    const a = peers[0] as Peer;
    a.info = { ...a.info, options: { ...a.info.options, lastBlockID: blockID(genesis[0] as Block) } };
    answering(a, async () => []);
    const sync = syncOver(ours, [a]);
    await assert.rejects(
      () => sync.mechanism.run(theirs[60] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'a',
    );
    assert.equal(sync.blocksFromBy().length, 10);
  });

  it('penalises the peer that served a block failing to apply, not the best peer', async () => {
    const genesis = chainFrom([], 0, 0);
    const before = chainFrom(genesis, 70, 1);
    const ours = new MemoryChain([...before]);
    const theirs = chainFrom(genesis, 160, 2);
    const peers = ['a', 'b'].map((name) => peerServing(ours, theirs, undefined, name));
    // in the second batch (54..106), which b serves: the new chain never gets better than the old one
    ours.failing.add(idOf(theirs[60] as Block));
    await assert.rejects(
      () => syncOver(ours, peers).mechanism.run(theirs[150] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'b',
    );
    assert.deepEqual(ids(ours.blocks), ids(before), 'the old chain restored');
  });
});

describe('BlockSynchronizationMechanism with one peer (as Klayr)', () => {
  it('asks the only peer again after a failed request, and ends with its penalty after 10 failures', async () => {
    const { ours, theirs, peers } = world(60, ['a']);
    const honest = (peers[0] as Peer).peerBlocks.blocksFrom;
    let failures = 2;
    answering(peers[0] as Peer, async (peerId, fromID) => {
      if (failures-- > 0) throw new Error('Request timed out');
      return honest(peerId, fromID);
    });
    const sync = syncOver(ours, peers);
    await sync.mechanism.run(theirs[60] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs));
    assert.deepEqual(sync.blocksFromBy(), ['a', 'a', 'a', 'a']);

    const stalled = world(60, ['a']);
    answering(stalled.peers[0] as Peer, async () => {
      throw new Error('Request timed out');
    });
    const failing = syncOver(stalled.ours, stalled.peers);
    await assert.rejects(
      () => failing.mechanism.run(stalled.theirs[60] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'a' && /didn't return any block/.test(e.reason),
    );
    assert.equal(failing.blocksFromBy().length, 10);
  });

  it('waits before asking a failed last peer again: a peer that announces the chain meanwhile takes over, nobody penalised', async () => {
    const { ours, theirs } = world(230, []);
    const received = theirs[220] as Block;
    const a = peerServing(ours, theirs, received, 'a');
    // c is a block behind at the start; the best peer dies after its first batch
    const c = peerServing(ours, theirs, theirs[219], 'c');
    const served = a.peerBlocks.blocksFrom;
    let batches = 0;
    answering(a, async (peerId, fromID) => {
      if (batches++ > 0) {
        // c announces the received block a moment after a's requests began to fail
        setTimeout(() => Object.assign(c.info, { options: { ...c.info.options, lastBlockID: blockID(received) } }), 30);
        throw new Error('Peer is not connected');
      }
      return served(peerId, fromID);
    });
    const sync = syncOver(ours, [a, c], 20);
    await sync.mechanism.run(received);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 221)));
    assert.deepEqual(sync.penalties, []);
    const asked = sync.blocksFromBy();
    assert.equal(asked[0], 'a');
    assert.ok(asked.includes('c'), `c served batches: ${asked.join(', ')}`);
    assert.ok(asked.filter((p) => p === 'a').length < 10, 'fewer than ten failed requests to a');
  });

  it('an answer without blocks counts as a failed request', async () => {
    const { ours, theirs, peers } = world(60, ['a']);
    answering(peers[0] as Peer, async () => []);
    await assert.rejects(
      () => syncOver(ours, peers).mechanism.run(theirs[60] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'a',
    );
  });

  it('blocks that do not build on the requested one are a failed batch: the old chain restored, the peer penalised', async () => {
    const genesis = chainFrom([], 0, 0);
    const before = chainFrom(genesis, 6, 1);
    const ours = new MemoryChain([...before]);
    const theirs = chainFrom(genesis, 10, 2);
    const peer = peerServing(ours, theirs, undefined, 'a');
    const honest = peer.peerBlocks.blocksFrom;
    answering(peer, async (peerId, fromID) => (await honest(peerId, fromID)).filter((_, i) => i !== 2));
    const sync = syncOver(ours, [peer]);
    await assert.rejects(
      () => sync.mechanism.run(theirs[10] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'a',
    );
    assert.deepEqual(ids(ours.blocks), ids(before));
    assert.deepEqual(sync.penalties, [], 'the synchronizer applies the penalty of the error');
  });
});

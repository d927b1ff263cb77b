import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockSynchronization } from '../../src/engine/sync/block_synchronization.js';
import {
  AbortError,
  ApplyPenaltyAndAbortError,
  ApplyPenaltyAndRestartError,
  RestartError,
} from '../../src/engine/sync/errors.js';
import { FastChainSwitching } from '../../src/engine/sync/fast_chain_switching.js';
import type { Block } from '../../src/lib/chain/block.js';
import { chainFrom, idOf, ids, MemoryChain, peerServing, validators } from '../helpers/sync_fakes.js';

const blockSync = (chain: MemoryChain, peer: ReturnType<typeof peerServing>) =>
  new BlockSynchronization({
    chain,
    peerBlocks: peer.peerBlocks,
    peers: { connectedPeers: () => [peer.info], applyPenalty: () => undefined },
    lastPeerRetryMs: 0,
  });

describe('BlockSynchronizationMechanism', () => {
  it('deletes back to the common block and applies the best peer’s blocks in batches up to the received block', async () => {
    const genesis = chainFrom([], 0, 0);
    const ours = new MemoryChain(chainFrom(genesis, 3, 1));
    const theirs = chainFrom(genesis, 120, 2);
    const peer = peerServing(ours, theirs);
    const received = theirs[110] as Block;
    await blockSync(ours, peer).run(received);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 111)));
    assert.equal(ours.deleted.length, 3);
    assert.equal(ours.saved.size, 0);
    assert.deepEqual(
      peer.requests.filter((r) => r === 'getBlocksFromId').length,
      3,
      'batches of 53 blocks: 53 + 53 + 4',
    );
  });

  it('pipelines: the next batch is requested while the current one is applied, and nothing is prefetched past the target', async () => {
    const genesis = chainFrom([], 0, 0);
    const ours = new MemoryChain(genesis);
    const theirs = chainFrom(genesis, 160, 2);
    const peer = peerServing(ours, theirs);
    const events: string[] = [];
    const fetch = peer.peerBlocks.blocksFrom;
    peer.peerBlocks.blocksFrom = async (peerId, fromID) => {
      events.push(`request after ${ours.tip().header.height}`);
      return fetch(peerId, fromID);
    };
    const apply = ours.apply.bind(ours);
    ours.apply = async (block) => {
      await new Promise((r) => setImmediate(r));
      return apply(block);
    };
    await blockSync(ours, peer).run(theirs[150] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 151)));
    // batches 1..53, 54..106, 107..159 (cut at 150): the second and third are asked for while the one before applies
    assert.deepEqual(events, ['request after 0', 'request after 0', 'request after 53']);
    assert.equal(ours.prefetched.length, 0, 'prefetched verdicts are cleared when the synchronization ends');
  });

  it('keeps the saved blocks when stopped in the middle (the next start restores them when better)', async () => {
    const genesis = chainFrom([], 0, 0);
    const before = chainFrom(genesis, 3, 1);
    const ours = new MemoryChain([...before]);
    const theirs = chainFrom(genesis, 10, 2);
    const mechanism = blockSync(ours, peerServing(ours, theirs));
    const apply = ours.apply.bind(ours);
    ours.apply = async (block) => {
      const applied = await apply(block);
      mechanism.stop();
      return applied;
    };
    await mechanism.run(theirs[10] as Block);
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 2)));
    assert.deepEqual(
      ids([...ours.saved.values()].sort((x, y) => x.header.height - y.header.height)),
      ids(before.slice(1)),
    );
  });

  it('applies for more than three rounds of slots since the finalized block', () => {
    const chain = new MemoryChain(chainFrom([], 0, 0));
    chain.now = 1000 + 3 * 153;
    const mechanism = blockSync(chain, peerServing(chain, chain.blocks));
    assert.equal(mechanism.isValidFor(), false);
    chain.now += 3;
    assert.equal(mechanism.isValidFor(), true);
  });

  it('restores the old chain and penalises the peer when a block fails and the new chain is not better', async () => {
    const genesis = chainFrom([], 0, 0);
    const before = chainFrom(genesis, 6, 1);
    const ours = new MemoryChain([...before]);
    const theirs = chainFrom(genesis, 10, 2);
    ours.failing.add(idOf(theirs[3] as Block));
    await assert.rejects(
      () => blockSync(ours, peerServing(ours, theirs)).run(theirs[10] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && e.peerId === 'peer:1',
    );
    assert.deepEqual(ids(ours.blocks), ids(before));
    assert.equal(ours.saved.size, 0);
  });

  it('restores the old chain when the peer stops serving blocks after the revert (Kestrel: Klayr keeps the chain cut back)', async () => {
    const genesis = chainFrom([], 0, 0);
    const before = chainFrom(genesis, 6, 1);
    const ours = new MemoryChain([...before]);
    const theirs = chainFrom(genesis, 10, 2);
    const peer = peerServing(ours, theirs);
    const fetch = peer.peerBlocks.blocksFrom;
    let served = 0;
    // one batch of two blocks (not better than the old chain), then nothing
    peer.peerBlocks.blocksFrom = async (peerId, fromID) => {
      served += 1;
      if (served > 1) throw new Error('timed out');
      return (await fetch(peerId, fromID)).slice(0, 2);
    };
    await assert.rejects(
      () => blockSync(ours, peer).run(theirs[10] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && /didn't return any block/.test(e.reason),
    );
    assert.deepEqual(ids(ours.blocks), ids(before));
    assert.equal(ours.saved.size, 0);
    // served blocks that made the chain better are kept
    const shorter = new MemoryChain(chainFrom(genesis, 1, 1));
    const second = peerServing(shorter, theirs);
    second.peerBlocks.blocksFrom = peer.peerBlocks.blocksFrom;
    served = 0;
    await assert.rejects(
      () => blockSync(shorter, second).run(theirs[10] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError,
    );
    assert.deepEqual(ids(shorter.blocks), ids(theirs.slice(0, 3)));
    assert.equal(shorter.saved.size, 0);
  });

  it('keeps the new chain and restarts when a block fails after the new chain became better', async () => {
    const genesis = chainFrom([], 0, 0);
    const ours = new MemoryChain(chainFrom(genesis, 2, 1));
    const theirs = chainFrom(genesis, 10, 2);
    ours.failing.add(idOf(theirs[6] as Block));
    await assert.rejects(
      () => blockSync(ours, peerServing(ours, theirs)).run(theirs[10] as Block),
      (e) => e instanceof RestartError,
    );
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 6)));
  });

  it('penalises a peer whose tip is not better than this chain, and aborts when no peer announces a better one', async () => {
    const genesis = chainFrom([], 0, 0);
    const ours = new MemoryChain(chainFrom(genesis, 5, 1));
    const theirs = chainFrom(genesis, 8, 2);
    const lying = peerServing(ours, theirs, theirs[2] as Block);
    lying.info = { ...lying.info, options: { ...lying.info.options, height: 8 } };
    await assert.rejects(
      () => blockSync(ours, lying).run(theirs[8] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError,
    );
    const behind = peerServing(ours, theirs.slice(0, 4));
    await assert.rejects(
      () => blockSync(ours, behind).run(theirs[3] as Block),
      (e) => e instanceof AbortError,
    );
    assert.equal(ours.tip().header.height, 5);
  });

  it('never deletes below the finalized height: no common block above it, or a common block under it, penalises the peer', async () => {
    const genesis = chainFrom([], 0, 0);
    const ours = new MemoryChain(chainFrom(genesis, 60, 1));
    ours.finalized = 55;
    const theirs = chainFrom(genesis, 70, 2);
    const peer = peerServing(ours, theirs);
    // only heights above the finalized one and the finalized one itself are offered: the peer knows none
    await assert.rejects(
      () => blockSync(ours, peer).run(theirs[70] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && /No common block/.test(e.reason),
    );
    // a peer naming a block below the finalized height anyway
    peer.peerBlocks.highestCommonBlock = async () => (genesis[0] as Block).header;
    await assert.rejects(
      () => blockSync(ours, peer).run(theirs[70] as Block),
      (e) => e instanceof ApplyPenaltyAndRestartError && /finalized height/.test(e.reason),
    );
    assert.equal(ours.tip().header.height, 60);
  });
});

describe('FastChainSwitchingMechanism', () => {
  const fork = (oursLength: number, theirsLength: number) => {
    const genesis = chainFrom([], 0, 0);
    const before = chainFrom(genesis, oursLength, 1);
    const ours = new MemoryChain([...before]);
    const theirs = chainFrom(genesis, theirsLength, 2);
    const peer = peerServing(ours, theirs);
    return { before, ours, theirs, peer, fcs: new FastChainSwitching({ chain: ours, peerBlocks: peer.peerBlocks }) };
  };

  it('switches to the peer’s chain from the common block within the last two rounds', async () => {
    const { ours, theirs, fcs } = fork(4, 6);
    await fcs.run(theirs[6] as Block, 'peer:1');
    assert.deepEqual(ids(ours.blocks), ids(theirs));
    assert.equal(ours.deleted.length, 4);
    assert.equal(ours.saved.size, 0);
  });

  it('validates every block before deleting anything: an invalid one penalises the peer, the chain unchanged', async () => {
    const { before, ours, theirs, fcs } = fork(4, 6);
    ours.invalid.add(idOf(theirs[5] as Block));
    await assert.rejects(
      () => fcs.run(theirs[6] as Block, 'peer:1'),
      (e) => e instanceof ApplyPenaltyAndAbortError && e.reason === 'Block validation failed',
    );
    assert.deepEqual(ids(ours.blocks), ids(before));
    assert.equal(ours.deleted.length, 0);
  });

  it('restores the old chain and penalises the peer when a block fails to apply', async () => {
    const { before, ours, theirs, fcs } = fork(4, 6);
    ours.failing.add(idOf(theirs[3] as Block));
    await assert.rejects(
      () => fcs.run(theirs[6] as Block, 'peer:1'),
      (e) => e instanceof ApplyPenaltyAndAbortError && /invalid block/.test(e.reason),
    );
    assert.deepEqual(ids(ours.blocks), ids(before));
  });

  it('keeps the saved blocks when stopped in the middle of the switch (the next start restores them when better)', async () => {
    const { before, ours, theirs, fcs } = fork(4, 6);
    const apply = ours.apply.bind(ours);
    ours.apply = async (block) => {
      const applied = await apply(block);
      fcs.stop();
      return applied;
    };
    await fcs.run(theirs[6] as Block, 'peer:1');
    assert.deepEqual(ids(ours.blocks), ids(theirs.slice(0, 2)));
    assert.deepEqual(
      ids([...ours.saved.values()].sort((x, y) => x.header.height - y.header.height)),
      ids(before.slice(1)),
    );
  });

  it('aborts when either chain is more than two rounds above the common block', async () => {
    const { before, ours, theirs, fcs } = fork(3, 12);
    ours.validatorList = validators(5);
    await assert.rejects(
      () => fcs.run(theirs[12] as Block, 'peer:1'),
      (e) => e instanceof AbortError,
    );
    assert.deepEqual(ids(ours.blocks), ids(before));
  });
});

// The synchronizer over real chains: a devnet node switches to another's longer chain (its blocks
// deleted, the other's applied), and restores its own blocks, re-executed, when the peer serves an
// invalid block; the peer is penalised and the synchronization restarted.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Block } from '../../src/lib/chain/block.js';
import { resigned } from '../helpers/resigned_block.js';
import { forkedNodes, idsOf, PEER, peerServing, synchronizerOf } from '../helpers/sync_chains.js';

/** The first answer to getBlocksFromId carries its third block changed by `tamper`; later answers are sound. */
const wipedSignature = (block: Block): Block => ({
  ...block,
  header: { ...block.header, signature: Buffer.alloc(64) },
});

const onceInvalid = (tamper: (block: Block) => Block = wipedSignature) => {
  let served = 0;
  return (blocks: Block[]): Block[] => {
    served += 1;
    if (served > 1) return blocks;
    return blocks.map((block, i) => (i === 2 ? tamper(block) : block));
  };
};

/** The three ways a served block fails: its header signature, its state root (found by executing it), its aggregate commit. */
const invalidBlocks: { name: string; tamper: (block: Block) => Block }[] = [
  { name: 'a bad signature', tamper: wipedSignature },
  { name: 'a wrong state root', tamper: (block) => resigned(block, { stateRoot: randomBytes(32) }) },
  {
    name: 'a broken aggregate commit',
    tamper: (block) =>
      resigned(block, {
        aggregateCommit: { height: 1, aggregationBits: Buffer.from([0xff]), certificateSignature: randomBytes(96) },
      }),
  },
];

describe('synchronizer over real chains', () => {
  it("fast chain switching to the peer's longer chain: the node's blocks deleted, the peer's executed to the same state", async () => {
    const { a, b, now } = await forkedNodes();
    const own = idsOf(b);
    const { peers, penalties } = peerServing(a);
    const { synchronizer, seen } = synchronizerOf(b, peers, now);
    await synchronizer.run(a.opened.chain.lastBlock(), PEER);
    assert.deepEqual(idsOf(b), idsOf(a));
    assert.ok(b.opened.state.root.equals(a.opened.state.root));
    assert.deepEqual(seen.deleted, [...own].reverse());
    assert.deepEqual(seen.committed, idsOf(a));
    assert.deepEqual(penalties, []);
    assert.equal(synchronizer.isActive, false);
    assert.ok(b.opened.tempBlocks.isEmpty(), 'the temp table is cleared when the switch ends');
  });

  it("starts no synchronization from a block within two rounds whose signature fails its generator's key (Kestrel's check): nothing asked, nothing deleted, nobody penalised", async () => {
    const { a, b, now, later } = await forkedNodes();
    const own = idsOf(b);
    const { peers, penalties } = peerServing(a);
    const asked: string[] = [];
    const request = peers.requestFromPeer.bind(peers);
    peers.requestFromPeer = (peerId, procedure, data) => {
      asked.push(procedure);
      return request(peerId, procedure, data);
    };
    for (const clock of [now, later]) {
      const { synchronizer, seen } = synchronizerOf(b, peers, clock);
      await synchronizer.run(wipedSignature(a.opened.chain.lastBlock()), PEER);
      assert.deepEqual([asked, seen.deleted, penalties], [[], [], []]);
    }
    assert.deepEqual(idsOf(b), own);
    const { synchronizer } = synchronizerOf(b, peers, now);
    await synchronizer.run(a.opened.chain.lastBlock(), PEER);
    assert.deepEqual(idsOf(b), idsOf(a), 'the same block signed as its generator signed it');
  });

  for (const { name, tamper } of invalidBlocks)
    it(`block synchronization: restores its own blocks (executed again) when the peer serves a block with ${name}, penalises the peer and restarts`, async () => {
      const { a, b, later } = await forkedNodes();
      const own = idsOf(b);
      const { peers, penalties } = peerServing(a, onceInvalid(tamper));
      const { synchronizer, seen } = synchronizerOf(b, peers, later);
      await synchronizer.run(a.opened.chain.lastBlock(), PEER);
      assert.deepEqual(penalties, [{ peerId: PEER, penalty: 100 }]);
      const aIDs = idsOf(a);
      // first try: own 5 deleted, two of A's applied; then both deleted, own 5 executed again; second try: A's chain
      assert.deepEqual(seen.committed, [...aIDs.slice(0, 2), ...own, ...aIDs]);
      assert.deepEqual(seen.deleted, [...[...own].reverse(), aIDs[1], aIDs[0], ...[...own].reverse()]);
      assert.deepEqual(idsOf(b), aIDs);
      assert.ok(b.opened.state.root.equals(a.opened.state.root));
      assert.ok(b.opened.tempBlocks.isEmpty());
    });

  it('fast chain switching: restores its own blocks when the peer serves an invalid block, penalises the peer and stops', async () => {
    const { a, b, now } = await forkedNodes();
    const own = idsOf(b);
    const ownRoot = Buffer.from(b.opened.state.root);
    const { peers, penalties } = peerServing(a, onceInvalid());
    const { synchronizer, seen } = synchronizerOf(b, peers, now);
    await synchronizer.run(a.opened.chain.lastBlock(), PEER);
    assert.deepEqual(penalties, [{ peerId: PEER, penalty: 100 }]);
    const aIDs = idsOf(a);
    assert.deepEqual(seen.committed, [...aIDs.slice(0, 2), ...own]);
    assert.deepEqual(idsOf(b), own);
    assert.ok(b.opened.state.root.equals(ownRoot));
    assert.ok(b.opened.tempBlocks.isEmpty(), 'the restored blocks left the temp table');
  });
});

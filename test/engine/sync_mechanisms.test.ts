import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { BFTValidator } from '../../src/engine/bft/types.js';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import { unsignedGenesisHeader } from '../../src/engine/genesis.js';
import type { ConnectedPeer } from '../../src/engine/network/peers.js';
import { BlockSynchronization } from '../../src/engine/sync/block_synchronization.js';
import {
  AbortError,
  ApplyPenaltyAndAbortError,
  ApplyPenaltyAndRestartError,
  RestartError,
} from '../../src/engine/sync/errors.js';
import { FastChainSwitching } from '../../src/engine/sync/fast_chain_switching.js';
import type { MechanismChain, MechanismPeerBlocks } from '../../src/engine/sync/mechanism.js';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';

const silent = pino({ level: 'silent' });
const idOf = (block: Block): string => blockHeaderID(block.header).toString('hex');

/** A chain of `length` blocks after `base` (the genesis block when base is empty), told apart by `tag`. */
const chainFrom = (base: readonly Block[], length: number, tag: number): Block[] => {
  const blocks = base.length > 0 ? [...base] : [blockAt(0, 0, Buffer.alloc(32))];
  for (let i = 0; i < length; i++) {
    const prev = blocks[blocks.length - 1] as Block;
    blocks.push(blockAt(prev.header.height + 1, tag, blockHeaderID(prev.header)));
  }
  return blocks;
};

function blockAt(height: number, tag: number, previousBlockID: Buffer): Block {
  const header: BlockHeader = {
    ...unsignedGenesisHeader({ height, timestamp: 1000 + height * 3, previousBlockID, assets: [] }),
    maxHeightPrevoted: 0,
    generatorAddress: Buffer.alloc(20, tag),
  };
  return { header, transactions: [], assets: [] };
}

const validators = (count: number): BFTValidator[] =>
  Array.from({ length: count }, (_, i) => ({
    address: Buffer.alloc(20, i + 1),
    bftWeight: 1n,
    generatorKey: Buffer.alloc(32),
    blsKey: Buffer.alloc(48),
  }));

/** The chain in memory: blocks that break their rules (`invalid`) or fail when applied (`failing`), by ID. */
class MemoryChain implements MechanismChain {
  readonly logger = silent;
  readonly saved = new Map<number, Block>();
  readonly deleted: string[] = [];
  readonly invalid = new Set<string>();
  readonly failing = new Set<string>();
  finalized = 0;
  validatorList = validators(51);
  now = 1000;

  constructor(public blocks: Block[]) {}

  tip(): Block {
    return this.blocks[this.blocks.length - 1] as Block;
  }
  finalizedHeight(): number {
    return this.finalized;
  }
  finalizedHeader(): BlockHeader {
    return (this.blocks[this.finalized] as Block).header;
  }
  currentValidators(): BFTValidator[] {
    return this.validatorList;
  }
  slotNumber(timestamp: number): number {
    return Math.floor((timestamp - 1000) / 3);
  }
  currentSlot(): number {
    return this.slotNumber(this.now);
  }
  idsAtHeights(heights: readonly number[]): Buffer[] {
    return heights.flatMap((h) => {
      const block = this.blocks[h];
      return block === undefined ? [] : [blockHeaderID(block.header)];
    });
  }
  headerByID(id: Buffer): BlockHeader | undefined {
    return this.blocks.find((b) => blockHeaderID(b.header).equals(id))?.header;
  }
  validate(block: Block): [] {
    if (this.invalid.has(idOf(block))) throw new Error('invalid block');
    return [];
  }
  async apply(block: Block): Promise<ExecutedBlock> {
    if (this.failing.has(idOf(block))) throw new Error('block execution failed');
    if (!block.header.previousBlockID.equals(blockHeaderID(this.tip().header))) throw new Error('not on the tip');
    this.blocks.push(block);
    return { block } as ExecutedBlock;
  }
  deleteAfter(height: number, save: boolean): void {
    while (this.tip().header.height > height) {
      if (this.tip().header.height <= this.finalized)
        throw new Error('Can not delete block below or same as finalized height');
      const block = this.blocks.pop() as Block;
      this.deleted.push(idOf(block));
      if (save) this.saved.set(block.header.height, block);
    }
  }
  savedTip(): Block | undefined {
    return [...this.saved.values()].sort((a, b) => b.header.height - a.header.height)[0];
  }
  async restoreSaved(): Promise<boolean> {
    const blocks = [...this.saved.values()].sort((a, b) => a.header.height - b.header.height);
    for (const block of blocks) this.blocks.push(block);
    this.saved.clear();
    return blocks.length > 0;
  }
  clearSaved(): void {
    this.saved.clear();
  }
  readonly prefetched: Buffer[] = [];
  prefetchSignatures(transactions: readonly { id: Buffer }[]): void {
    for (const tx of transactions) this.prefetched.push(tx.id);
  }
  clearPrefetched(): void {
    this.prefetched.length = 0;
  }
}

/** A peer serving `blocks` as Kestrel and Klayr serve them (53 blocks per getBlocksFromId). */
const peerServing = (chain: MemoryChain, blocks: Block[], tip: Block = blocks[blocks.length - 1] as Block) => {
  const requests: string[] = [];
  const peerBlocks: MechanismPeerBlocks = {
    lastBlock: async () => {
      requests.push('getLastBlock');
      return tip;
    },
    highestCommonBlock: async (_peerId, ids) => {
      requests.push('getHighestCommonBlock');
      const known = new Set(blocks.map(idOf));
      const common = ids.find((id) => known.has(id.toString('hex')));
      return common === undefined ? undefined : chain.headerByID(common);
    },
    blocksFrom: async (_peerId, fromID) => {
      requests.push('getBlocksFromId');
      const index = blocks.findIndex((b) => blockHeaderID(b.header).equals(fromID));
      const after = index === -1 ? [] : blocks.slice(index + 1, index + 54);
      if (after.length === 0) throw new Error('did not respond with block');
      return after;
    },
  };
  const info: ConnectedPeer = {
    peerId: 'peer:1',
    options: {
      height: tip.header.height,
      maxHeightPrevoted: tip.header.maxHeightPrevoted,
      blockVersion: 2,
      lastBlockID: blockHeaderID(tip.header),
    },
  };
  return { peerBlocks, requests, info };
};

const blockSync = (chain: MemoryChain, peer: ReturnType<typeof peerServing>) =>
  new BlockSynchronization({ chain, peerBlocks: peer.peerBlocks, peers: { connectedPeers: () => [peer.info] } });

const ids = (blocks: readonly Block[]): string[] => blocks.map(idOf);

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

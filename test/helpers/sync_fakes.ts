// The block synchronization mechanisms' fakes: a chain in memory and peers serving blocks from memory.
import { pino } from 'pino';
import type { BFTValidator } from '../../src/engine/bft/types.js';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import { unsignedGenesisHeader } from '../../src/engine/genesis.js';
import type { ConnectedPeer } from '../../src/engine/network/peers.js';
import type { MechanismChain, MechanismPeerBlocks } from '../../src/engine/sync/mechanism.js';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';

export const silent = pino({ level: 'silent' });
export const idOf = (block: Block): string => blockHeaderID(block.header).toString('hex');

/** A chain of `length` blocks after `base` (the genesis block when base is empty), told apart by `tag`. */
export const chainFrom = (base: readonly Block[], length: number, tag: number): Block[] => {
  const blocks = base.length > 0 ? [...base] : [blockAt(0, 0, Buffer.alloc(32))];
  for (let i = 0; i < length; i++) {
    const prev = blocks[blocks.length - 1] as Block;
    blocks.push(blockAt(prev.header.height + 1, tag, blockHeaderID(prev.header)));
  }
  return blocks;
};

export function blockAt(height: number, tag: number, previousBlockID: Buffer): Block {
  const header: BlockHeader = {
    ...unsignedGenesisHeader({ height, timestamp: 1000 + height * 3, previousBlockID, assets: [] }),
    maxHeightPrevoted: 0,
    generatorAddress: Buffer.alloc(20, tag),
  };
  return { header, transactions: [], assets: [] };
}

export const validators = (count: number): BFTValidator[] =>
  Array.from({ length: count }, (_, i) => ({
    address: Buffer.alloc(20, i + 1),
    bftWeight: 1n,
    generatorKey: Buffer.alloc(32),
    blsKey: Buffer.alloc(48),
  }));

/** The chain in memory: blocks that break their rules (`invalid`) or fail when applied (`failing`), by ID. */
export class MemoryChain implements MechanismChain {
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
  /** Blocks whose aggregate commits were prefetched, by height. */
  readonly prefetchedCommits: number[] = [];
  prefetchHeaderChecks(blocks: readonly Block[]): void {
    for (const b of blocks) this.prefetchedCommits.push(b.header.height);
  }
  clearPrefetched(): void {
    this.prefetched.length = 0;
    this.prefetchedCommits.length = 0;
  }
}

/** A peer serving `blocks` as Kestrel and Klayr serve them (53 blocks per getBlocksFromId). */
export const peerServing = (
  chain: MemoryChain,
  blocks: Block[],
  tip: Block = blocks[blocks.length - 1] as Block,
  peerId = 'peer:1',
) => {
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
    peerId,
    options: {
      height: tip.header.height,
      maxHeightPrevoted: tip.header.maxHeightPrevoted,
      blockVersion: 2,
      lastBlockID: blockHeaderID(tip.header),
    },
  };
  return { peerBlocks, requests, info };
};

export const ids = (blocks: readonly Block[]): string[] => blocks.map(idOf);

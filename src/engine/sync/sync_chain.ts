import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import type { BFTValidator } from '../bft/types.js';
import type { BlockStore } from '../chain/block_store.js';
import type { Chain } from '../chain/chain.js';
import type { TempBlockStore } from '../chain/temp_block_store.js';
import type { BlockProcessor, BlockVerifiers } from '../consensus/block_processor.js';
import { extendsTip, isDifferentChain } from '../consensus/fork_choice.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import { PrefetchingSignatureVerifier } from '../pools/signature_prefetch.js';
import type { ExtraWrites } from '../state/state_db.js';
import { yieldToIO } from './yield_to_io.js';

export interface SyncChainOptions {
  chain: Chain;
  blocks: BlockStore;
  /** Where the blocks deleted for a chain switch are kept until it ends. */
  tempBlocks: TempBlockStore;
  processor: BlockProcessor;
  /** In a node, the `bls` and `verify` pools. */
  verifiers: BlockVerifiers;
  logger: Logger;
  /** Every block the synchronizer commits (a peer's, or one of its own restored). */
  onBlockCommitted?: (executed: ExecutedBlock) => void;
  /** Every block the synchronizer deletes: its transactions go back to the pool. */
  onBlockDeleted?: (block: Block) => void;
  /** Unix seconds. */
  now?: () => number;
  /**
   * Lets the event loop run after each block it commits (requests that came meanwhile answered).
   * Off by default: in the sync bench it gave no better RPC p99 under load (the loop already turns
   * while the synchronizer awaits the worker pools and downloads) and a slightly lower block rate.
   */
  yieldBetweenBlocks?: boolean;
}

/**
 * The chain as the synchronizer changes it (klayr-framework's blockExecutor for the
 * synchronizer, and its blocks temp table): peers' blocks validated, verified and committed,
 * the tip deleted down to a height with the deleted blocks kept to restore them.
 *
 * As in Klayr, the deleted blocks are kept in a table of the meta database (TempBlockStore, by
 * height): each is written in the LMDB transaction that deletes it and removed in the one that
 * commits it again, and the table is cleared when the switch ends. A node killed in the middle
 * of a chain switch finds every block of its old chain either in the chain or in the table; on
 * start (restoreUponStartup, Klayr's restoreBlocksUponStartup) it goes back to them when they
 * are a better chain than its tip, and clears the table otherwise.
 */
export class SyncChain {
  readonly #now: () => number;
  /** The `verify` pool, answering single-signature checks from verdicts started ahead. */
  readonly #signatures: PrefetchingSignatureVerifier;
  readonly #verifiers: BlockVerifiers;

  constructor(private readonly options: SyncChainOptions) {
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.#signatures = new PrefetchingSignatureVerifier(options.verifiers.signatures);
    this.#verifiers = { bls: options.verifiers.bls, signatures: this.#signatures };
  }

  get logger(): Logger {
    return this.options.logger;
  }

  tip(): Block {
    return this.options.chain.lastBlock();
  }

  finalizedHeight(): number {
    return this.options.chain.finalizedHeight();
  }

  finalizedHeader(): BlockHeader {
    const height = this.finalizedHeight();
    const header = this.options.chain.headerAt(height);
    if (header === undefined) throw new Error(`No block at the finalized height ${height}`);
    return header;
  }

  /** The validators of the next block (Klayr's getCurrentValidators: the BFT parameters at the tip's height + 1). */
  currentValidators(): BFTValidator[] {
    const { chain } = this.options;
    return chain.bft.getBFTParameters(chain.engineView(), this.tip().header.height + 1).validators;
  }

  slotNumber(timestamp: number): number {
    return this.options.chain.bft.getSlotNumber(timestamp);
  }

  currentSlot(): number {
    return this.slotNumber(this.#now());
  }

  headerByID(id: Buffer): BlockHeader | undefined {
    return this.options.blocks.headerByID(id);
  }

  /** The IDs of this chain's blocks at `heights`, in that order, the heights it has no block at left out. */
  idsAtHeights(heights: readonly number[]): Buffer[] {
    return heights.flatMap((height) => this.options.blocks.idAtHeight(height) ?? []);
  }

  /** Transactions about to execute: their single-signature checks start in the `verify` pool now. */
  prefetchSignatures(transactions: readonly PreparedTransaction[]): void {
    this.#signatures.prefetch(transactions);
  }

  /**
   * Blocks about to be applied in order: their aggregate commits' signature checks start in the `bls` pool now,
   * their headers' signatures in the `verify` pool.
   */
  prefetchHeaderChecks(blocks: readonly Block[]): void {
    const headers = blocks.map((b) => b.header);
    this.options.processor.prefetchAggregateCommits(headers, this.#verifiers.bls);
    this.options.processor.prefetchHeaderSignatures(headers, this.#verifiers.signatures);
  }

  /**
   * Why a received block must not start a synchronization, where this chain can tell it is forged (Kestrel's
   * check; Klayr starts one from any block of a better chain): a block within two rounds of the tip (fast chain
   * switching's reach) from a validator of the current set must be signed under that validator's key as of the
   * tip. Undefined when it is, and for the blocks this chain cannot judge: further away, or from a generator
   * outside the current set, the block is taken as Klayr takes it. A validator that changed its key in the
   * blocks this node has yet to see is refused too, without a penalty: another validator's block starts the
   * synchronization.
   */
  startRefusal(block: Block): string | undefined {
    const { header } = block;
    const validators = this.currentValidators();
    if (Math.abs(header.height - this.tip().header.height) > validators.length * 2) return undefined;
    const generator = validators.find((v) => v.address.equals(header.generatorAddress));
    if (generator === undefined || this.options.processor.signedBy(header, generator.generatorKey)) return undefined;
    return "The block's signature does not verify under its generator's key";
  }

  /** The block's own rules (Klayr's validateBlock); throws when broken. */
  validate(block: Block): PreparedTransaction[] {
    return this.options.processor.validate(block);
  }

  /** A peer's block verified against the tip (header, aggregate commit, assets), executed and committed. */
  async apply(block: Block, prepared: readonly PreparedTransaction[] = this.validate(block)): Promise<ExecutedBlock> {
    const { processor } = this.options;
    const tip = this.tip();
    await processor.verify(block, this.#verifiers.bls);
    return this.#execute(block, prepared, tip);
  }

  /**
   * Deletes the tip until it is at `height` (Klayr's deleteBlocksAfterHeight); with `save`, each
   * deleted block is written to the temp table in the transaction that deletes it, for
   * restoreSaved. `stopped` ends the deletions early.
   */
  deleteAfter(height: number, save: boolean, stopped: () => boolean = () => false): void {
    const { chain, logger, tempBlocks } = this.options;
    logger.debug({ desiredHeight: height, lastBlockHeight: this.tip().header.height }, 'Deleting blocks after height');
    while (this.tip().header.height > height && !stopped()) {
      const tip = this.tip();
      const block = chain.deleteLastBlock(save ? (dbs) => tempBlocks.save(dbs, tip) : undefined);
      logger.debug(
        { height: block.header.height, id: blockHeaderID(block.header).toString('hex'), saved: save },
        'Deleted the last block',
      );
      this.options.onBlockDeleted?.(block);
    }
  }

  /** The highest block saved by deleteAfter (Klayr's tip before applying, from the temp table). */
  savedTip(): Block | undefined {
    return this.options.tempBlocks.all().at(-1);
  }

  /**
   * The saved blocks applied again in height order, each removed from the temp table in the
   * transaction that commits it (Klayr's restoreBlocks: executed without the header checks,
   * which they passed before). False when none was saved.
   */
  async restoreSaved(): Promise<boolean> {
    const { tempBlocks } = this.options;
    const saved = tempBlocks.all();
    for (const block of saved) {
      const { height } = block.header;
      await this.#execute(block, this.validate(block), this.tip(), (dbs) => tempBlocks.remove(dbs, height));
    }
    return saved.length > 0;
  }

  clearSaved(): void {
    this.options.tempBlocks.clear();
  }

  /**
   * Klayr's restoreBlocksUponStartup (its Synchronizer.init): blocks left in the temp table by a
   * chain switch that did not end (the node was killed or stopped in the middle) are restored
   * when the highest of them is better than the tip (isDifferentChain) or its child, after
   * deleting the tip back to the height below the lowest; otherwise the table is cleared. Saved
   * blocks that do not link into one chain on this one above its finalized height are cleared too.
   */
  async restoreUponStartup(): Promise<void> {
    const { logger, tempBlocks } = this.options;
    const saved = tempBlocks.all();
    const lowest = saved[0];
    const highest = saved.at(-1);
    if (lowest === undefined || highest === undefined) return;
    const tip = this.tip().header;
    const context = {
      tipHeight: tip.height,
      tipID: blockHeaderID(tip).toString('hex'),
      savedHeights: `${lowest.header.height}-${highest.header.height}`,
      savedTipID: blockHeaderID(highest.header).toString('hex'),
    };
    const unlinked = this.#unlinked(saved);
    if (unlinked !== undefined) {
      logger.warn({ ...context, reason: unlinked }, 'Blocks temp table can not be restored: cleared');
      this.clearSaved();
      return;
    }
    if (!isDifferentChain(tip, highest.header) && !extendsTip(tip, highest.header)) {
      logger.info(context, 'Blocks temp table holds no better chain than the tip: cleared');
      this.clearSaved();
      return;
    }
    logger.info(context, 'Restoring blocks from temporary table');
    this.deleteAfter(lowest.header.height - 1, false);
    await this.restoreSaved();
    const restored = this.tip().header;
    logger.info(
      { height: restored.height, id: blockHeaderID(restored).toString('hex') },
      'Chain successfully restored',
    );
  }

  /** Why the saved blocks can not go back on this chain (undefined when they can). */
  #unlinked(saved: readonly Block[]): string | undefined {
    const [lowest] = saved;
    if (lowest === undefined) return undefined;
    const base = lowest.header.height - 1;
    if (base < this.finalizedHeight())
      return `the saved blocks start at height ${lowest.header.height}, at or below the finalized height ${this.finalizedHeight()}`;
    const baseID = this.options.blocks.idAtHeight(base);
    if (baseID === undefined || !baseID.equals(lowest.header.previousBlockID))
      return `the lowest saved block's parent is not this chain's block at height ${base}`;
    for (let i = 1; i < saved.length; i++) {
      const [parent, child] = [saved[i - 1], saved[i]];
      if (parent !== undefined && child !== undefined && !extendsTip(parent.header, child.header))
        return `the saved block at height ${child.header.height} does not follow the one below it`;
    }
    return undefined;
  }

  /** Prefetched verdicts no block asked for (a synchronization that ended early). */
  clearPrefetched(): void {
    this.#signatures.clear();
    this.options.processor.clearPrefetchedAggregateCommits();
  }

  async #execute(
    block: Block,
    prepared: readonly PreparedTransaction[],
    tip: Block,
    extra?: ExtraWrites,
  ): Promise<ExecutedBlock> {
    const executed = await this.options.processor.executeVerified(
      block,
      prepared,
      this.#verifiers,
      tip,
      extra,
      yieldToIO,
    );
    // the ID is a header encoding and a hash: only for a logger that writes the line
    if (this.options.logger.isLevelEnabled('info'))
      this.options.logger.info(
        {
          id: blockHeaderID(block.header).toString('hex'),
          height: block.header.height,
          numberOfTransactions: block.transactions.length,
          numberOfEvents: executed.events.length,
        },
        'Block executed',
      );
    this.options.onBlockCommitted?.(executed);
    // bounded memory: blocks written behind wait here when too many are still to be written
    await this.options.chain.writeBehindRoom();
    if (this.options.yieldBetweenBlocks === true) await nextTurn();
    return executed;
  }
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import type { BFTValidator } from '../bft/types.js';
import type { BlockStore } from '../chain/block_store.js';
import type { Chain } from '../chain/chain.js';
import type { BlockProcessor, BlockVerifiers } from '../consensus/block_processor.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import { PrefetchingSignatureVerifier } from '../pools/signature_prefetch.js';

export interface SyncChainOptions {
  chain: Chain;
  blocks: BlockStore;
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
 * Klayr keeps the deleted blocks in a database table and restores them on the next start when
 * they are better than the chain then; Kestrel keeps them in memory for as long as one
 * synchronization needs them. After a crash in the middle of a chain switch the node restarts on
 * whatever prefix of either chain it had committed (each block commit is atomic) and catches up
 * again from its peers: the deleted blocks are not restored from disk.
 */
export class SyncChain {
  /** Blocks deleted for a chain switch, by height (Klayr's temp table is keyed by height too). */
  readonly #saved = new Map<number, Block>();
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
    return this.options.blocks.byID(id)?.header;
  }

  /** The IDs of this chain's blocks at `heights`, in that order, the heights it has no block at left out. */
  idsAtHeights(heights: readonly number[]): Buffer[] {
    return heights.flatMap((height) => this.options.blocks.idAtHeight(height) ?? []);
  }

  /** Transactions about to execute: their single-signature checks start in the `verify` pool now. */
  prefetchSignatures(transactions: readonly PreparedTransaction[]): void {
    this.#signatures.prefetch(transactions);
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
   * Deletes the tip until it is at `height` (Klayr's deleteBlocksAfterHeight); with `save`, the
   * deleted blocks are kept for restoreSaved. `stopped` ends the deletions early.
   */
  deleteAfter(height: number, save: boolean, stopped: () => boolean = () => false): void {
    const { chain, logger } = this.options;
    logger.debug({ desiredHeight: height, lastBlockHeight: this.tip().header.height }, 'Deleting blocks after height');
    while (this.tip().header.height > height && !stopped()) {
      const block = chain.deleteLastBlock();
      if (save) this.#saved.set(block.header.height, block);
      logger.debug(
        { height: block.header.height, id: blockHeaderID(block.header).toString('hex'), saved: save },
        'Deleted the last block',
      );
      this.options.onBlockDeleted?.(block);
    }
  }

  /** The highest block saved by deleteAfter (Klayr's tip before applying, from the temp table). */
  savedTip(): Block | undefined {
    const heights = [...this.#saved.keys()];
    return heights.length === 0 ? undefined : this.#saved.get(Math.max(...heights));
  }

  /**
   * The saved blocks applied again in height order, each removed once committed (Klayr's
   * restoreBlocks: executed without the header checks, which they passed before). False when
   * none was saved.
   */
  async restoreSaved(): Promise<boolean> {
    const heights = [...this.#saved.keys()].sort((a, b) => a - b);
    if (heights.length === 0) return false;
    for (const height of heights) {
      const block = this.#saved.get(height);
      if (block === undefined) continue;
      await this.#execute(block, this.validate(block), this.tip());
      this.#saved.delete(height);
    }
    return true;
  }

  clearSaved(): void {
    this.#saved.clear();
  }

  /** Prefetched verdicts no block asked for (a synchronization that ended early). */
  clearPrefetched(): void {
    this.#signatures.clear();
  }

  async #execute(block: Block, prepared: readonly PreparedTransaction[], tip: Block): Promise<ExecutedBlock> {
    const executed = await this.options.processor.executeVerified(block, prepared, this.#verifiers, tip);
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

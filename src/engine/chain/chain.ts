import type { Block, BlockHeader } from '../../lib/chain/block.js';
import type { SMTProof } from '../../lib/tree/index.js';
import type { KestrelDatabases } from '../../storage/database.js';
import { removeHeightsBelow } from '../../storage/prune.js';
import { readCommittedState } from '../../storage/state_roots.js';
import { encodeHeight, TABLES, tableHeightKey, tableKey } from '../../storage/tables.js';
import type { WriteBehind, WriteBehindOptions } from '../../storage/write_behind.js';
import { writeBehindOf } from '../../storage/write_behind.js';
import type { BFTMethod, BFTModule } from '../bft/index.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import type { ExtraWrites, StateDB } from '../state/state_db.js';
import { BlockState, decodeUndo, encodeUndo, PlainStateDB } from '../state/state_db.js';
import type { BlockStore } from './block_store.js';
import type { EventStore } from './event_store.js';
import type { InclusionProofConfig } from './inclusion_proofs.js';
import { InclusionProofs } from './inclusion_proofs.js';
import { prunableBelow } from './retention.js';

/** Where each block's undo of the engine (BFT) state is kept in the meta database. */
const engineUndoKey = (height: number): Buffer => tableHeightKey(TABLES.engineUndo, height);
/** The finalized height, kept apart from the BFT state (which a block deletion reverts). */
const FINALIZED_KEY = tableKey(TABLES.finalized);
/** At most this many blocks' aggregate commit heights are kept in memory (Chain.maxRemovalHeight). */
const MAX_CERTIFIED_HEIGHTS = 4096;

export interface ChainOptions {
  dbs: KestrelDatabases;
  stateDB: StateDB;
  blocks: BlockStore;
  events: EventStore;
  bft: BFTModule;
  minimumCertifyHeight: number;
  /** Events older than this many heights are pruned; -1 keeps all. */
  keepEventsForHeights: number;
  /** State keys proved after every block (system.inclusionProofKeys), kept for keepInclusionProofsForHeights (-1: all). */
  inclusionProofs?: InclusionProofConfig;
}

/**
 * The chain's state and its only writer: the tip, the committed BFT state, the finalized
 * height; an executed block committed (block, events, state, BFT state, inclusion proof in one
 * LMDB transaction) or the tip deleted.
 */
export class Chain {
  readonly engineDB: PlainStateDB;
  readonly #proofs: InclusionProofs;
  readonly #committedListeners: ((block: Block) => void)[] = [];
  #tip?: Block;
  /** finalizedHeight() as of the last commit: only this chain's commits and deletions change what it reads. */
  #finalized: number | undefined;
  #removal: { finalized: number; height: number } | undefined;
  /**
   * The aggregate commit's height of each block this process committed, from the finalized height up (in
   * height order): the next finalized block's is found here instead of read and decoded from the block store.
   */
  readonly #certifiedHeights = new Map<number, number>();

  constructor(private readonly options: ChainOptions) {
    this.engineDB = new PlainStateDB(options.dbs.engine);
    this.#proofs = new InclusionProofs(options.dbs, options.stateDB, options.inclusionProofs);
  }

  get bft(): BFTMethod {
    return this.options.bft.method;
  }

  /** The tip, kept in memory from the last commit (read from storage once). */
  lastBlock(): Block {
    if (this.#tip === undefined) {
      const last = this.options.blocks.last();
      if (last === undefined) throw new Error('The chain has no genesis block');
      this.#tip = last;
    }
    return this.#tip;
  }

  headerAt(height: number): BlockHeader | undefined {
    return this.options.blocks.headerByHeight(height);
  }

  /** A read view of the committed engine state (BFT votes and parameters). */
  engineView(): BlockState {
    return new BlockState(this.engineDB);
  }

  /**
   * The highest height ever precommitted, as Klayr's chain keeps it: it never goes down, not
   * even when deleting blocks reverts the BFT state that finalized it.
   */
  finalizedHeight(): number {
    this.#finalized ??= this.#finalizedHeightOf(this.engineView());
    return this.#finalized;
  }

  /** The finalized height with `engine`'s BFT state (a block being committed). */
  #finalizedHeightOf(engine: BlockState): number {
    const stored = this.options.dbs.meta.get(FINALIZED_KEY)?.readUInt32BE(0) ?? 0;
    return Math.max(stored, this.bft.getBFTHeights(engine).maxHeightPrecommitted);
  }

  /** Klayr's max removal height: BFT parameters and commits below the finalized block's certified height may be deleted. */
  maxRemovalHeight(): number {
    const finalized = this.finalizedHeight();
    // a finalized block is never deleted: its header, read once, stands for as long as it is the finalized one
    if (this.#removal?.finalized !== finalized) {
      const certified =
        this.#certifiedHeights.get(finalized) ??
        this.options.blocks.headerByHeight(finalized)?.aggregateCommit.height ??
        0;
      this.#removal = { finalized, height: Math.max(certified, this.options.minimumCertifyHeight - 1) };
    }
    return this.#removal.height;
  }

  inclusionProofsAt(height: number): SMTProof {
    return this.#proofs.at(height);
  }

  /** A proof of store keys against the root committed at `height`, on this thread (it sees commits not yet written to LMDB). */
  proveState(height: number, root: Buffer, storeKeys: readonly Buffer[]): SMTProof {
    return this.options.stateDB.prove(height, root, storeKeys);
  }

  #writeBehind(): WriteBehind | undefined {
    return writeBehindOf(this.options.dbs.root);
  }

  /**
   * Write-behind mode (block synchronization, storage/write_behind.ts): from now on each commit
   * (and block deletion) is recorded in memory, seen by every read at once, and written to LMDB
   * in the background, several blocks per transaction. Ends with endWriteBehind.
   */
  beginWriteBehind(options?: WriteBehindOptions): void {
    this.#writeBehind()?.begin(options);
  }

  /** Ends write-behind mode: resolves once every recorded commit is in LMDB (rejects if a write failed). */
  async endWriteBehind(): Promise<void> {
    await this.#writeBehind()?.end();
  }

  /** Waits while write-behind holds more commits than it allows in memory (call between blocks). */
  async writeBehindRoom(): Promise<void> {
    await this.#writeBehind()?.room();
  }

  /**
   * Runs `callback` once LMDB holds exactly the chain as committed now (at once outside write-behind),
   * before anything later reaches LMDB: a read transaction it opens pins that state (a backup).
   */
  whenStored(callback: () => void): void {
    const behind = this.#writeBehind();
    if (behind === undefined) callback();
    else behind.whenStored(callback);
  }

  /**
   * Calls `listener` with the height LMDB holds after each write-behind flush (the chain a restart
   * after a crash would open).
   */
  onStored(listener: (height: number) => void): void {
    const { dbs } = this.options;
    this.#writeBehind()?.onFlush(() => {
      const transaction = dbs.root.useReadTransaction();
      try {
        const height = readCommittedState(dbs, { transaction })?.height;
        if (height !== undefined) listener(height);
      } finally {
        transaction.done();
      }
    });
  }

  /** Whether commits are recorded and not all in LMDB yet (worker threads reading LMDB would not see them). */
  hasPendingWrites(): boolean {
    return (this.#writeBehind()?.pendingSets ?? 0) > 0;
  }

  /**
   * Commits an executed block in one LMDB write transaction: state, tree nodes, undo diffs, BFT
   * state, block, events, inclusion proofs, pruning and the finalized height (and the caller's
   * `extra` records) land together or not at all. In write-behind mode the same writes are one
   * recorded set, read at once and written to LMDB whole by a later flush.
   */
  commit(executed: ExecutedBlock, extra?: ExtraWrites): void {
    this.#commit(executed, extra, true);
  }

  /** Commits the genesis block through the same transaction as every block (without an inclusion proof, as before any block). */
  commitGenesis(executed: ExecutedBlock): void {
    this.#commit(executed, undefined, false);
  }

  #commit(executed: ExecutedBlock, extra: ExtraWrites | undefined, withProofs: boolean): void {
    const { block, prepared, engine } = executed;
    const { height } = block.header;
    const keep = this.options.keepEventsForHeights;
    // proved before the transaction, against the root it commits, so the write transaction stays short
    const proof = withProofs ? this.#proofs.prove(prepared) : undefined;
    const precommitted = () => this.bft.getBFTHeights(engine).maxHeightPrecommitted;
    let finalizedNow = 0;
    this.engineDB.inTransaction(() =>
      this.options.stateDB.commit(prepared, height, (dbs) => {
        dbs.meta.putSync(engineUndoKey(height), encodeUndo(this.engineDB.writeSync(engine)));
        this.options.blocks.save(dbs, block, executed.transactionIDs);
        this.options.events.save(dbs, height, executed.encodedEvents());
        // as Klayr: events older than keepEventsForHeights go once their block is final
        if (keep >= 0) {
          const below = prunableBelow(precommitted(), height, keep);
          if (below > 0) this.options.events.removeBelow(dbs, below);
        }
        if (proof !== undefined) this.#proofs.save(dbs, height, proof, precommitted());
        // final blocks are never deleted: what would undo them can go
        finalizedNow = this.#finalizedHeightOf(engine);
        dbs.meta.putSync(FINALIZED_KEY, encodeHeight(finalizedNow));
        this.options.stateDB.pruneDiffsBelow(dbs, finalizedNow + 1);
        removeHeightsBelow(dbs.meta, TABLES.engineUndo, finalizedNow + 1);
        extra?.(dbs);
      }),
    );
    this.#finalized = finalizedNow;
    this.#tip = block;
    this.#rememberCertifiedHeight(block.header, finalizedNow);
    for (const listener of this.#committedListeners) listener(block);
  }

  #rememberCertifiedHeight(header: BlockHeader, finalized: number): void {
    const heights = this.#certifiedHeights;
    heights.set(header.height, header.aggregateCommit.height);
    // below the finalized height nothing is asked for again; without finality, the oldest go past a bound
    for (const height of heights.keys()) {
      if (height >= finalized && heights.size <= MAX_CERTIFIED_HEIGHTS) break;
      heights.delete(height);
    }
  }

  /**
   * Calls `listener` after each commit, synchronously: before anything else can run, so what it
   * reads (or pins with a read transaction) is the state of exactly that block. It must not throw
   * (the block is committed by then): work that can fail belongs in what it starts.
   */
  onCommitted(listener: (block: Block) => void): void {
    this.#committedListeners.push(listener);
  }

  /**
   * Deletes the tip (a block above the finalized height), as Klayr's consensus does before
   * switching to a better chain: its state and tree root, BFT state, block, events and
   * inclusion proof are undone in one LMDB transaction (with the caller's `extra` records: a
   * chain switch saves the block in its temp table). Returns the deleted block.
   */
  deleteLastBlock(extra?: ExtraWrites): Block {
    const block = this.lastBlock();
    const { height } = block.header;
    if (height === 0 || this.options.blocks.idAtHeight(height - 1) === undefined)
      throw new Error('Can not delete the genesis block');
    if (height <= this.finalizedHeight()) throw new Error('Can not delete block below or same as finalized height');
    if (this.options.stateDB.height !== height)
      throw new Error(`State is at height ${this.options.stateDB.height}, not at the last block's ${height}`);
    const undo = this.options.dbs.meta.get(engineUndoKey(height));
    if (undo === undefined) throw new Error(`No engine state undo stored for height ${height}`);
    this.engineDB.inTransaction(() =>
      this.options.stateDB.revertLast((dbs) => {
        this.engineDB.undoSync(decodeUndo(undo));
        dbs.meta.removeSync(engineUndoKey(height));
        this.options.blocks.removeLast(dbs, block);
        this.options.events.remove(dbs, height);
        this.#proofs.remove(dbs, height);
        extra?.(dbs);
      }),
    );
    this.#tip = undefined;
    this.#finalized = undefined;
    this.#certifiedHeights.delete(height);
    return block;
  }
}

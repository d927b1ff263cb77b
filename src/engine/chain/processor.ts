import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID, computeAssetRoot, validateBlock, verifyBlockHeaderSignature } from '../../lib/chain/block.js';
import { merkleRoot } from '../../lib/tree/index.js';
import type { SMTProof } from '../../lib/tree/index.js';
import { certificateSignatureRequest, unsignedCertificateOf } from '../../lib/chain/certificate.js';
import { BLSKeyCache } from '../../lib/crypto/bls_key_cache.js';
import type { WeightedAggregateRequest } from '../../lib/crypto/bls_key_cache.js';
import type { BlsVerifier } from '../pools/bls_verifier.js';
import type { SignatureVerifier } from '../pools/signature_verifier.js';
import { assertSignatures, SignatureRecorder } from './deferred_signatures.js';
import type { SignatureCheckItem } from './deferred_signatures.js';
import { computeEventRoot, EVENT_INDEX_LENGTH_BITS } from '../../lib/chain/events.js';
import type { BlockEvent } from '../../lib/chain/events.js';
import { asPrepared, prepareTransaction, validateTransaction } from '../../lib/transaction/index.js';
import type { PreparedTransaction, TransactionObject } from '../../lib/transaction/index.js';
import { blockContext, transactionContext } from '../state_machine/context.js';
import { EventQueue } from '../state_machine/event_queue.js';
import { EVENT_TOPIC_TRANSACTION_EXECUTION } from '../state_machine/state_machine.js';
import type { ExecutionResult, VerifyResult } from '../state_machine/state_machine.js';
import { BFTParameterNotFoundError } from '../bft/index.js';
import type { BFTModule } from '../bft/index.js';
import { BlockState, decodeUndo, encodeUndo, PlainStateDB } from '../state/state_db.js';
import { removeHeightsBelow } from '../../storage/prune.js';
import { encodeHeight, tableHeightKey, tableKey, TABLES } from '../../storage/tables.js';
import type { ExtraWrites, PreparedState, StateDB } from '../state/state_db.js';
import type { StateMachine, TransactionSelection } from '../state_machine/state_machine.js';
import type { NextValidators, SignatureCheck } from '../state_machine/module.js';
import type { KestrelDatabases } from '../../storage/database.js';
import type { BlockStore } from './block_store.js';
import { InclusionProofStore } from './inclusion_proof_store.js';
import type { EventStore } from './event_store.js';

/** Where each block's undo of the engine (BFT) state is kept in the meta database. */
const engineUndoKey = (height: number): Buffer => tableHeightKey(TABLES.engineUndo, height);
/** The finalized height, kept apart from the BFT state (which a block deletion reverts). */
const FINALIZED_KEY = tableKey(TABLES.finalized);

/** Block version of Klayr SDK v6 blocks after genesis. */
export const BLOCK_VERSION = 2;
/** Klayr's MAX_EVENTS_PER_BLOCK. */
export const MAX_EVENTS_PER_BLOCK = 2 ** EVENT_INDEX_LENGTH_BITS;

export interface ChainOptions {
  dbs: KestrelDatabases;
  stateDB: StateDB;
  blocks: BlockStore;
  events: EventStore;
  machine: StateMachine;
  bft: BFTModule;
  chainID: Buffer;
  maxTransactionsSize: number;
  minimumCertifyHeight: number;
  /** Events older than this many heights are pruned; -1 keeps all. */
  keepEventsForHeights: number;
  /** State keys proved after every block (system.inclusionProofKeys), kept for keepInclusionProofsForHeights (-1: all). */
  inclusionProofs?: { keys: Buffer[]; keepForHeights: number };
  now?: () => number;
}

/** A block executed on overlays, with everything needed to commit it. */
export interface ExecutedBlock {
  block: Block;
  /** The block's transaction IDs, in order. */
  transactionIDs: Buffer[];
  events: BlockEvent[];
  prepared: PreparedState;
  engine: BlockState;
  nextValidators?: NextValidators;
  /** With deferred signature checks: the checks of the block's transactions, still to run before the block may be committed. */
  signatureChecks?: readonly SignatureCheckItem[];
}

/** The verifiers of the asynchronous block path (in a node, the `bls` and `verify` pools). */
export interface BlockVerifiers {
  bls: BlsVerifier;
  signatures: SignatureVerifier;
}

/**
 * The chain: verifies blocks against the tip and BFT, executes them with the state machine on
 * overlays (application state and engine state), checks the roots the header claims, and
 * commits block, events, state and BFT state in one LMDB transaction.
 */
export class ChainProcessor {
  readonly engineDB: PlainStateDB;
  readonly #now: () => number;
  readonly #blsKeys = new BLSKeyCache();
  #tip?: Block;
  readonly #proofs: InclusionProofStore;

  constructor(private readonly options: ChainOptions) {
    this.engineDB = new PlainStateDB(options.dbs.engine);
    this.#proofs = new InclusionProofStore(options.dbs);
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  get bft() {
    return this.options.bft.method;
  }

  /** The modules' lifecycle the chain runs (the generator asks it for block assets). */
  get machine(): StateMachine {
    return this.options.machine;
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

  /** A read view of the committed engine state (BFT votes and parameters). */
  engineView(): BlockState {
    return new BlockState(this.engineDB);
  }

  /**
   * The highest height ever precommitted, as Klayr's chain keeps it: it never goes down, not
   * even when deleting blocks reverts the BFT state that finalized it.
   */
  finalizedHeight(): number {
    return this.#finalizedHeightOf(this.engineView());
  }

  /** The finalized height with `engine`'s BFT state (a block being committed). */
  #finalizedHeightOf(engine: BlockState): number {
    return Math.max(this.#storedFinalizedHeight(), this.bft.getBFTHeights(engine).maxHeightPrecommitted);
  }

  #storedFinalizedHeight(): number {
    return this.options.dbs.meta.get(FINALIZED_KEY)?.readUInt32BE(0) ?? 0;
  }

  /** Klayr's max removal height: BFT parameters and commits below the finalized block's certified height may be deleted. */
  maxRemovalHeight(): number {
    const certified = this.options.blocks.byHeight(this.finalizedHeight())?.header.aggregateCommit.height ?? 0;
    return Math.max(certified, this.options.minimumCertifyHeight - 1);
  }

  headerAt(height: number): BlockHeader | undefined {
    return this.options.blocks.byHeight(height)?.header;
  }

  /**
   * Executes a block on top of the tip: BFT's vote update, the modules' hooks and transactions,
   * the validator-set change. With `selection`, the transactions are chosen while executing
   * (generation) and the returned block carries them. With `deferSignatures`, the transactions'
   * signatures are not checked here: the returned `signatureChecks` must pass before committing.
   */
  execute(block: Block, selection?: TransactionSelection, prepared: readonly PreparedTransaction[] = block.transactions.map((tx) => prepareTransaction(tx)), deferSignatures = false): ExecutedBlock {
    const engine = this.engineView();
    this.options.bft.beforeTransactionsExecute(engine, block.header, this.maxRemovalHeight());
    const state = this.options.stateDB.newOverlay();
    const recorder = deferSignatures ? new SignatureRecorder() : undefined;
    const result = this.options.machine.executeBlock({ header: block.header, assets: block.assets, transactions: prepared }, this.options.chainID, state, selection, recorder?.hookFor);
    if (result.events.length > MAX_EVENTS_PER_BLOCK) throw new Error(`Number of events cannot exceed ${MAX_EVENTS_PER_BLOCK} per block`);
    if (result.nextValidators !== undefined) {
      const { precommitThreshold, certificateThreshold, validators } = result.nextValidators;
      this.bft.setBFTParameters(engine, precommitThreshold, certificateThreshold, validators);
    }
    return {
      block: { ...block, transactions: result.transactions.map((p) => p.transaction) },
      transactionIDs: result.transactions.map((p) => p.id),
      events: result.events,
      prepared: this.options.stateDB.prepare(state),
      engine,
      ...(result.nextValidators !== undefined ? { nextValidators: result.nextValidators } : {}),
      ...(recorder !== undefined ? { signatureChecks: recorder.checksOf(result.transactions) } : {}),
    };
  }

  /** The roots a header must carry for an executed block. */
  rootsOf(executed: ExecutedBlock): Pick<BlockHeader, 'stateRoot' | 'eventRoot' | 'validatorsHash' | 'transactionRoot' | 'assetRoot'> {
    const { height } = executed.block.header;
    return {
      stateRoot: executed.prepared.root,
      eventRoot: computeEventRoot(executed.events),
      validatorsHash: this.bft.getBFTParameters(executed.engine, height + 1).validatorsHash,
      transactionRoot: merkleRoot(executed.transactionIDs),
      assetRoot: computeAssetRoot(executed.block.assets),
    };
  }

  /**
   * Commits an executed block in one LMDB write transaction: state, tree nodes, undo diffs, BFT
   * state, block, events, inclusion proofs, pruning and the finalized height (and the caller's
   * `extra` records) land together or not at all.
   */
  commit(executed: ExecutedBlock, extra?: ExtraWrites): void {
    this.#commit(executed, extra, true);
  }

  /** Commits the genesis block through the same transaction as every block (without an inclusion proof, as before any block). */
  commitGenesis(executed: ExecutedBlock): void {
    this.#commit(executed, undefined, false);
  }

  #commit(executed: ExecutedBlock, extra: ExtraWrites | undefined, withProofs: boolean): void {
    const { block, events, prepared, engine } = executed;
    const { height } = block.header;
    const keep = this.options.keepEventsForHeights;
    // proved before the transaction, against the root it commits, so the write transaction stays short
    const proof = withProofs ? this.#inclusionProof(prepared) : undefined;
    this.options.stateDB.commit(prepared, height, (dbs) => {
      dbs.meta.putSync(engineUndoKey(height), encodeUndo(this.engineDB.writeSync(engine)));
      this.options.blocks.save(dbs, block);
      this.options.events.save(dbs, height, events);
      // as Klayr: events older than keepEventsForHeights go once their block is final
      if (keep >= 0) {
        const below = this.#prunableBelow(engine, height, keep);
        if (below > 0) this.options.events.removeBelow(dbs, below);
      }
      if (proof !== undefined) this.#saveInclusionProof(dbs, height, proof, engine);
      // final blocks are never deleted: what would undo them can go
      const finalized = this.#finalizedHeightOf(engine);
      dbs.meta.putSync(FINALIZED_KEY, encodeHeight(finalized));
      this.options.stateDB.pruneDiffsBelow(dbs, finalized + 1);
      removeHeightsBelow(dbs.meta, TABLES.engineUndo, finalized + 1);
      extra?.(dbs);
    });
    this.#tip = block;
  }

  /**
   * Deletes the tip (a block above the finalized height), as Klayr's consensus does before
   * switching to a better chain: its state and tree root, BFT state, block, events and
   * inclusion proof are undone in one LMDB transaction. Returns the deleted block.
   */
  deleteLastBlock(): Block {
    const block = this.lastBlock();
    const { height } = block.header;
    if (height === 0 || this.options.blocks.idAtHeight(height - 1) === undefined) throw new Error('Can not delete the genesis block');
    if (height <= this.finalizedHeight()) throw new Error('Can not delete block below or same as finalized height');
    if (this.options.stateDB.height !== height) throw new Error(`State is at height ${this.options.stateDB.height}, not at the last block's ${height}`);
    const undo = this.options.dbs.meta.get(engineUndoKey(height));
    if (undo === undefined) throw new Error(`No engine state undo stored for height ${height}`);
    this.options.stateDB.revertLast((dbs) => {
      this.engineDB.undoSync(decodeUndo(undo));
      dbs.meta.removeSync(engineUndoKey(height));
      this.options.blocks.removeLast(dbs, block);
      this.options.events.remove(dbs, height);
      this.#proofs.remove(dbs, height);
    });
    this.#tip = undefined;
    return block;
  }

  /** As Klayr after each block: a proof of the configured keys against the block's state root (none configured: undefined). */
  #inclusionProof(prepared: PreparedState): SMTProof | undefined {
    const config = this.options.inclusionProofs;
    if (config === undefined || config.keys.length === 0 || config.keepForHeights === 0) return undefined;
    return this.options.stateDB.provePrepared(prepared, config.keys);
  }

  /** Stores the block's proof by height and prunes old ones like events; inside the commit's transaction. */
  #saveInclusionProof(dbs: KestrelDatabases, height: number, proof: SMTProof, engine: BlockState): void {
    this.#proofs.save(dbs, height, proof);
    const keep = this.options.inclusionProofs?.keepForHeights ?? -1;
    if (keep > 0) {
      const below = this.#prunableBelow(engine, height, keep);
      if (below > 0) this.#proofs.removeBelow(dbs, below);
    }
  }

  /** Data kept for `keep` heights may go below this height once its blocks are final. */
  #prunableBelow(engine: BlockState, height: number, keep: number): number {
    return Math.min(this.bft.getBFTHeights(engine).maxHeightPrecommitted, Math.max(0, height - keep));
  }

  inclusionProofsAt(height: number) {
    return this.#proofs.at(height);
  }

  #transactionContext(tx: PreparedTransaction, events: EventQueue, checkSignatures?: SignatureCheck) {
    const tip = this.lastBlock();
    const state = this.options.stateDB.newOverlay();
    const base = blockContext({ block: tip, chainID: this.options.chainID, state, events, contextStore: new Map() });
    return transactionContext(base, tx, events, checkSignatures);
  }

  /**
   * A transaction verified against committed state with the tip's header, as Klayr's pool and
   * endpoints verify it. With `checkSignatures`, the signature check is handed to it.
   */
  verifyTransaction(tx: TransactionObject | PreparedTransaction, onlyCommand = false, checkSignatures?: SignatureCheck): VerifyResult {
    return this.options.machine.verifyTransaction(this.#transactionContext(asPrepared(tx), new EventQueue(0), checkSignatures), onlyCommand);
  }

  /** Executes a transaction on a throw-away overlay of committed state: the result and the events it would emit. */
  dryRunTransaction(input: TransactionObject | PreparedTransaction): { result: ExecutionResult; events: BlockEvent[] } {
    const tx = asPrepared(input);
    const height = this.lastBlock().header.height;
    const queue = new EventQueue(height);
    const ctx = this.#transactionContext(tx, queue.childQueue(Buffer.concat([EVENT_TOPIC_TRANSACTION_EXECUTION, tx.id])));
    const result = this.options.machine.executeTransaction(ctx);
    return { result, events: queue.getEvents() };
  }

  /** Verifies a block received for the tip, executes it, checks its roots and commits it. */
  processBlock(block: Block, options: { aggregateCommitVerified?: boolean } = {}): ExecutedBlock {
    const prepared = this.#validated(block);
    this.verifyHeader(block.header, options.aggregateCommitVerified === true);
    const executed = this.execute(block, undefined, prepared);
    this.#checkRoots(executed);
    this.commit(executed);
    return executed;
  }

  /**
   * processBlock with the expensive checks in verifiers (in a node, the `bls` and `verify` pools):
   * the aggregate commit's signature before executing, the transactions' signatures (recorded
   * while executing) before committing. A failure discards the executed block; so does a tip
   * that changed while the verifiers worked.
   */
  async processBlockVerifiedBy(block: Block, verifiers: BlockVerifiers): Promise<ExecutedBlock> {
    const prepared = this.#validated(block);
    const tip = this.lastBlock();
    this.verifyHeader(block.header, true);
    if (!(await this.verifyAggregateCommitBy(this.engineView(), block.header.aggregateCommit, verifiers.bls))) {
      throw new Error(`Invalid aggregateCommit for the block with id: ${blockHeaderID(block.header).toString('hex')}`);
    }
    this.#assertTip(tip);
    const executed = this.execute(block, undefined, prepared, true);
    await assertSignatures(executed.signatureChecks ?? [], verifiers.signatures);
    this.#assertTip(tip);
    this.#checkRoots(executed);
    this.commit(executed);
    return executed;
  }

  /** A block's own rules (schema, transactions, size, version); its transactions prepared. */
  #validated(block: Block): PreparedTransaction[] {
    const prepared = block.transactions.map((tx) => prepareTransaction(tx));
    validateBlock(block, validateTransaction, prepared.map((p) => p.id));
    const size = prepared.reduce((s, tx) => s + tx.bytes.length, 0);
    if (size > this.options.maxTransactionsSize) throw new Error(`Transactions in the block exceed maxTransactionsSize ${this.options.maxTransactionsSize}`);
    if (block.header.version !== BLOCK_VERSION) throw new Error(`Block version must be ${BLOCK_VERSION}`);
    return prepared;
  }

  /** An executed block received: its header must claim the roots it executed to. */
  #checkRoots(executed: ExecutedBlock): void {
    const { block } = executed;
    const roots = this.rootsOf(executed);
    const id = blockHeaderID(block.header).toString('hex');
    if (!roots.validatorsHash.equals(block.header.validatorsHash)) throw new Error(`Invalid validatorsHash ${block.header.validatorsHash.toString('hex')} of the block with id: ${id}`);
    if (!roots.eventRoot.equals(block.header.eventRoot)) throw new Error(`Event root is not valid for the block with id: ${id}`);
    if (!roots.stateRoot.equals(block.header.stateRoot)) throw new Error(`State root is not valid for the block with id: ${id}`);
  }

  /** After waiting on a verifier: the block was checked against this tip, which must still be the chain's. */
  #assertTip(tip: Block): void {
    if (this.lastBlock() !== tip) throw new Error('The chain changed while the block was being verified');
  }

  /** Consensus checks of a header against the tip and the committed BFT state (Klayr's Consensus._verify). */
  verifyHeader(header: BlockHeader, aggregateCommitVerified = false): void {
    const id = blockHeaderID(header).toString('hex');
    const tip = this.lastBlock().header;
    const engine = this.engineView();
    const slot = this.bft.getSlotNumber(header.timestamp);
    if (slot > this.bft.getSlotNumber(this.#now()) || slot <= this.bft.getSlotNumber(tip.timestamp)) throw new Error(`Invalid timestamp ${header.timestamp} of the block with id: ${id}`);
    if (header.height !== tip.height + 1) throw new Error(`Invalid height ${header.height} of the block with id: ${id}`);
    if (!header.previousBlockID.equals(blockHeaderID(tip))) throw new Error(`Invalid previousBlockID ${header.previousBlockID.toString('hex')} of the block with id: ${id}`);
    if (header.generatorAddress.length !== 20) throw new Error(`Invalid length of generatorAddress ${header.generatorAddress.toString('hex')} of the block with id: ${id}`);
    const expected = this.bft.getGeneratorAtTimestamp(engine, header.height, header.timestamp);
    if (!header.generatorAddress.equals(expected.address)) {
      throw new Error(`Generator with address ${header.generatorAddress.toString('hex')} of the block with id: ${id} is ineligible to generate block for the current slot`);
    }
    if (header.maxHeightPrevoted !== this.bft.getBFTHeights(engine).maxHeightPrevoted) throw new Error(`Invalid maxHeightPrevoted ${header.maxHeightPrevoted} of the block with id: ${id}`);
    if (this.bft.isHeaderContradictingChain(engine, header)) throw new Error(`Contradicting headers for the block with id: ${id}`);
    if (header.impliesMaxPrevotes !== this.bft.impliesMaximalPrevotes(engine, header)) throw new Error('Invalid imply max prevote.');
    const generator = this.bft.getBFTParameters(engine, header.height).validators.find((v) => v.address.equals(header.generatorAddress));
    if (generator === undefined) throw new Error(`Validator with address ${header.generatorAddress.toString('hex')} does not exist for height ${header.height}`);
    if (!verifyBlockHeaderSignature(header, generator.generatorKey, this.options.chainID)) throw new Error(`Invalid signature ${header.signature.toString('hex')} of the block with id: ${id}`);
    if (!aggregateCommitVerified && !this.verifyAggregateCommit(engine, header.aggregateCommit)) throw new Error(`Invalid aggregateCommit for the block with id: ${id}`);
  }

  /**
   * LIP 0061's rules for a block's aggregate commit: true for an empty commit repeating the
   * certified height, false for a commit that breaks a rule, otherwise the signature check
   * (a certificate of a precommitted block by enough BFT weight) still to run.
   */
  aggregateCommitCheck(engine: BlockState, commit: BlockHeader['aggregateCommit']): boolean | WeightedAggregateRequest {
    const { maxHeightCertified, maxHeightPrecommitted } = this.bft.getBFTHeights(engine);
    const bitsEmpty = commit.aggregationBits.length === 0;
    const signatureEmpty = commit.certificateSignature.length === 0;
    if (bitsEmpty && signatureEmpty) return commit.height === maxHeightCertified;
    if (bitsEmpty || signatureEmpty) return false;
    if (commit.height <= maxHeightCertified || commit.height > maxHeightPrecommitted || commit.height < this.options.minimumCertifyHeight) return false;
    try {
      const next = Math.max(this.bft.getNextHeightBFTParameters(engine, maxHeightCertified + 1), this.options.minimumCertifyHeight + 1);
      if (commit.height > next - 1) return false;
    } catch (error) {
      if (!(error instanceof BFTParameterNotFoundError)) throw error;
    }
    const certified = this.options.blocks.byHeight(commit.height);
    if (certified === undefined) return false;
    const { validators, certificateThreshold, validatorsHash } = this.bft.getBFTParametersActiveValidators(engine, commit.height);
    return certificateSignatureRequest(validatorsHash, validators, certificateThreshold, this.options.chainID, unsignedCertificateOf(certified.header), commit.aggregationBits, commit.certificateSignature);
  }

  /** The aggregate commit check on this thread (with a cache of each validator set's parsed BLS keys). */
  verifyAggregateCommit(engine: BlockState, commit: BlockHeader['aggregateCommit']): boolean {
    const check = this.aggregateCommitCheck(engine, commit);
    return typeof check === 'boolean' ? check : this.#blsKeys.verifyWeighted(check);
  }

  /** The aggregate commit check with the signature checked by a verifier (in a node, the `bls` pool). */
  async verifyAggregateCommitBy(engine: BlockState, commit: BlockHeader['aggregateCommit'], verifier: BlsVerifier): Promise<boolean> {
    const check = this.aggregateCommitCheck(engine, commit);
    return typeof check === 'boolean' ? check : verifier.verifyAggregate(check);
  }
}

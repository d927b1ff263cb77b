import type { Logger } from 'pino';
import type { AggregateCommit, Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID, signBlockHeader } from '../../lib/chain/block.js';
import { RepeatedLog } from '../../lib/log/repeated_log.js';
import type { PreparedTransaction, TransactionObject } from '../../lib/transaction/index.js';
import { asPrepared } from '../../lib/transaction/index.js';
import { EMPTY_HASH } from '../../lib/tree/index.js';
import type { BinaryDB } from '../../storage/database.js';
import type { Chain } from '../chain/chain.js';
import type { AggregateCommitVerifier } from '../consensus/aggregate_commit.js';
import { BLOCK_VERSION } from '../consensus/block_rules.js';
import type { CommitPool } from '../consensus/commit_pool.js';
import type { BlockExecutor } from '../execution/block_executor.js';
import { signatureFailures } from '../execution/deferred_signatures.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import { prefetchAggregateSignatures } from '../pools/aggregate_prefetch.js';
import type { BlsVerifier, PopItem } from '../pools/bls_verifier.js';
import { createLocalBlsVerifier } from '../pools/bls_verifier.js';
import { prefetchProofsOfPossession } from '../pools/pop_prefetch.js';
import type { SignatureVerifier } from '../pools/signature_verifier.js';
import { createLocalSignatureVerifier } from '../pools/signature_verifier.js';
import type { BlockState } from '../state/state_db.js';
import { getGeneratedInfo, putGeneratedInfoSync } from './generated_info.js';
import type { GeneratorKeys } from './keys.js';
import { singleCommitsOf } from './single_commits.js';

export interface GeneratorOptions {
  chain: Chain;
  executor: BlockExecutor;
  /** Checks the aggregate commit the next block is to carry. */
  aggregateCommits: AggregateCommitVerifier;
  chainID: Buffer;
  /** The generator LMDB database (generated info). */
  db: BinaryDB;
  keys: readonly GeneratorKeys[];
  maxTransactionsSize: number;
  logger: Logger;
  /** Pool transactions in the order they should be tried. */
  candidates?: () => Iterable<TransactionObject | PreparedTransaction>;
  onRejected?: (tx: TransactionObject, reason: Error) => void;
  onBlock?: (executed: ExecutedBlock) => void;
  now?: () => number;
  /** Receives the local validators' single commits for finalized blocks and supplies aggregate commits. */
  commitPool?: CommitPool;
  /** Checks the aggregate commit a block carries (in a node, the `bls` pool); on this thread when left out. */
  bls?: BlsVerifier;
  /** Checks the signatures of a block's transactions before it is committed (in a node, the `verify` pool); on this thread when left out. */
  signatures?: SignatureVerifier;
  /** The BLS proofs of possession a transaction's execution will check (the modules' hook): checked ahead in `bls`. */
  proofsOfPossession?: (tx: TransactionObject) => PopItem[];
  /** While true (block synchronization runs), no block is generated, as Klayr's generator loop does. */
  syncing?: () => boolean;
}

const EMPTY = Buffer.alloc(0);

/** The candidates but those whose IDs (hex) are listed. */
function* without(
  candidates: Iterable<TransactionObject | PreparedTransaction>,
  ids: ReadonlySet<string>,
): Iterable<PreparedTransaction> {
  for (const candidate of candidates) {
    const tx = asPrepared(candidate);
    if (!ids.has(tx.id.toString('hex'))) yield tx;
  }
}

/**
 * The validator already generated a block at or above the height it would generate now (its chain was
 * switched to a shorter one): a block here could contradict that one (Klayr's contradicting headers, a
 * misbehaviour anyone may report), so the slot is skipped until the chain passes that height.
 */
export class ContradictingGenerationError extends Error {
  constructor(
    readonly address: Buffer,
    readonly generatedHeight: number,
    readonly height: number,
  ) {
    super(
      `Validator ${address.toString('hex')} already generated a block at height ${generatedHeight}; generating height ${height} could contradict it`,
    );
    this.name = 'ContradictingGenerationError';
  }
}

/**
 * Block generation: every second, if the current slot belongs to a validator whose keys are
 * enabled here, build the next block (transactions from the pool, the random seed reveal),
 * execute it, sign it and commit it with the validator's generated info.
 */
export class Generator {
  readonly #enabled = new Map<string, GeneratorKeys>();
  readonly #now: () => number;
  #timer?: NodeJS.Timeout;
  #busy = false;
  /** A failure in every tick (each second) is logged once, then counted. */
  readonly #failures: RepeatedLog;
  /** The slots skipped so as not to contradict a block generated before a chain switch, logged once per validator and height. */
  readonly #skipsLogged = new Set<string>();
  readonly #bls: BlsVerifier;
  readonly #signatures: SignatureVerifier;
  /** The finalized height when certification last looked. */
  #finalizedSeen: number;

  constructor(private readonly options: GeneratorOptions) {
    this.#failures = new RepeatedLog(options.logger);
    this.#bls = options.bls ?? createLocalBlsVerifier();
    this.#signatures = options.signatures ?? createLocalSignatureVerifier(options.chainID);
    for (const k of options.keys) this.#enabled.set(k.address.toString('hex'), k);
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.#finalizedSeen = options.chain.finalizedHeight();
    for (const keys of this.#enabled.values()) this.#initSingleCommits(keys);
    options.chain.onCommitted(() => this.#certifySafely());
  }

  /** The chain's commit listener must not throw: a failure to certify is logged. */
  #certifySafely(): void {
    try {
      this.certify();
    } catch (error) {
      this.options.logger.error({ err: error }, 'Fail to certify single commit');
    }
  }

  get enabledCount(): number {
    return this.#enabled.size;
  }

  /** The keys of the validators generating here now. */
  enabledKeys(address: Buffer): GeneratorKeys | undefined {
    return this.#enabled.get(address.toString('hex'));
  }

  enable(keys: GeneratorKeys): void {
    this.#enabled.set(keys.address.toString('hex'), keys);
    this.#initSingleCommits(keys);
  }

  disable(address: Buffer): void {
    this.#enabled.delete(address.toString('hex'));
  }

  start(intervalMs = 1000): void {
    this.#timer ??= setInterval(() => void this.tick(), intervalMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#failures.resolved();
  }

  /** Generates a block when the current slot is ours and has none yet; returns it, if any. */
  async tick(): Promise<Block | undefined> {
    if (this.#busy || this.options.syncing?.() === true) return undefined;
    this.#busy = true;
    try {
      const { chain } = this.options;
      const now = this.#now();
      const tip = chain.lastBlock().header;
      const slot = chain.bft.getSlotNumber(now);
      const lastSlot = chain.bft.getSlotNumber(tip.timestamp);
      if (slot <= lastSlot) return undefined;
      const generator = chain.bft.getGeneratorAtTimestamp(chain.engineView(), tip.height + 1, now);
      const keys = this.#enabled.get(generator.address.toString('hex'));
      if (keys === undefined) return undefined;
      // a missed previous slot: give its block a fifth of a slot to arrive, as Klayr does
      if (lastSlot < slot - 1 && now <= chain.bft.getSlotTime(slot) + chain.bft.blockTime() / 5) return undefined;
      const block = await this.generate(keys, now);
      this.#failures.resolved();
      return block;
    } catch (error) {
      if (error instanceof ContradictingGenerationError) this.#logSkip(error);
      else this.#failures.report(error, 'Block generation failed');
      return undefined;
    } finally {
      this.#busy = false;
    }
  }

  /**
   * After any block (generated here or received; the generator listens to the chain's commits):
   * if finality moved past `finalizedBefore` (by default, the finalized height seen at the last
   * call), the enabled validators sign the newly finalized certificates into the commit pool as
   * local commits, as Klayr's generator does on its finalized-height event. Returns the count signed.
   */
  certify(finalizedBefore = this.#finalizedSeen): number {
    const { chain, commitPool } = this.options;
    const finalized = chain.finalizedHeight();
    this.#finalizedSeen = Math.max(this.#finalizedSeen, finalized);
    // most blocks move no finality, and a node with no validator enabled signs nothing: no header read for them
    if (commitPool === undefined || finalizedBefore >= finalized || this.#enabled.size === 0) return 0;
    const from = Math.max(finalizedBefore, chain.maxRemovalHeight());
    if (from >= finalized) return 0;
    let signed = 0;
    for (const keys of this.#enabled.values()) signed += this.#addLocalCommits(keys, from, finalized);
    return signed;
  }

  /** Klayr's initSingleCommits: a validator enabled here certifies what is precommitted and still certifiable. */
  #initSingleCommits(keys: GeneratorKeys): void {
    const { chain } = this.options;
    const { maxHeightPrecommitted } = chain.bft.getBFTHeights(chain.engineView());
    this.#addLocalCommits(keys, chain.maxRemovalHeight(), maxHeightPrecommitted);
  }

  #addLocalCommits(keys: GeneratorKeys, from: number, to: number): number {
    const { chain, chainID, commitPool } = this.options;
    if (commitPool === undefined || from >= to) return 0;
    const commits = singleCommitsOf(chain, chainID, keys, from, to);
    for (const commit of commits) commitPool.addCommit(commit, true);
    return commits.length;
  }

  /**
   * The aggregate commit for the next block: the commit pool's, once its certificate signature
   * verified (Klayr runs its own block through consensus verification); otherwise the empty one.
   */
  async #aggregateCommit(engine: BlockState): Promise<AggregateCommit> {
    const { maxHeightCertified } = this.options.chain.bft.getBFTHeights(engine);
    const empty = { height: maxHeightCertified, aggregationBits: EMPTY, certificateSignature: EMPTY };
    const selected = this.options.commitPool?.select(engine);
    if (selected === undefined || selected.aggregationBits.length === 0) return empty;
    if (await this.options.aggregateCommits.verifyBy(engine, selected, this.#bls)) return selected;
    this.options.logger.warn(
      { height: selected.height },
      'The aggregate commit of the local single commits does not verify; generating with an empty one',
    );
    return empty;
  }

  /**
   * Executes the next block with the candidates, their signatures checked by the verifier after
   * executing; a candidate whose signatures fail is left out (and reported) and the block
   * executed again without it.
   */
  async #executeVerified(block: Block): Promise<ExecutedBlock> {
    const { executor } = this.options;
    const rejected = new Set<string>();
    for (;;) {
      const all = await this.#withProofsChecked(this.options.candidates?.() ?? []);
      const candidates = rejected.size === 0 ? all : without(all, rejected);
      const executed = executor.execute(
        block,
        {
          candidates,
          maxTransactionsSize: this.options.maxTransactionsSize,
          ...(this.options.onRejected ? { onRejected: this.options.onRejected } : {}),
        },
        undefined,
        true,
      );
      const failures = await signatureFailures(executed.signatureChecks ?? [], this.#signatures);
      if (failures.length === 0) return executed;
      for (const { tx, reason } of failures) {
        rejected.add(tx.id.toString('hex'));
        this.options.onRejected?.(
          tx.transaction,
          new Error(`Failed to verify transaction ${tx.id.toString('hex')}. ${reason}`),
        );
      }
    }
  }

  /**
   * The candidates, their key registrations' proofs of possession and the aggregate signatures
   * they verify (certificates, mainchain registrations) checked in the verifier (the `bls` pool in
   * a node) and remembered, so that executing them runs no pairing on this thread.
   */
  async #withProofsChecked(
    candidates: Iterable<TransactionObject | PreparedTransaction>,
  ): Promise<Iterable<TransactionObject | PreparedTransaction>> {
    const proofsOf = this.options.proofsOfPossession;
    const list = [...candidates];
    const transactions = list.map((c) => ('transaction' in c ? c.transaction : c));
    await Promise.all([
      proofsOf === undefined
        ? undefined
        : prefetchProofsOfPossession(
            transactions.flatMap((tx) => proofsOf(tx)),
            this.#bls,
          ),
      prefetchAggregateSignatures(this.options.executor.aggregateSignatureChecks(transactions), this.#bls),
    ]);
    return list;
  }

  /** Expected after a switch to a shorter chain, not a failure: one warning per validator and generated height. */
  #logSkip({ address, generatedHeight, height }: ContradictingGenerationError): void {
    const key = `${address.toString('hex')}:${generatedHeight}`;
    if (this.#skipsLogged.has(key)) return;
    if (this.#skipsLogged.size >= 100) this.#skipsLogged.clear();
    this.#skipsLogged.add(key);
    this.options.logger.warn(
      { address: address.toString('hex'), generatedHeight, height },
      'Not generating until the chain passes the height this validator last generated at: a block below it could contradict that one',
    );
  }

  /** Builds, executes, signs and commits the next block as `keys`' validator at `timestamp`. */
  async generate(keys: GeneratorKeys, timestamp: number): Promise<Block> {
    const { chain, executor, chainID, db } = this.options;
    const tipBlock = chain.lastBlock();
    const aggregateCommit = await this.#aggregateCommit(chain.engineView());
    this.#assertTip(tipBlock);
    const tip = tipBlock.header;
    const height = tip.height + 1;
    const engine = chain.engineView();
    const { maxHeightPrevoted } = chain.bft.getBFTHeights(engine);
    const info = getGeneratedInfo(db, keys.address);
    if (info.height >= height) throw new ContradictingGenerationError(keys.address, info.height, height);
    const maxHeightGenerated = info.height;
    const draft: BlockHeader = {
      version: BLOCK_VERSION,
      timestamp,
      height,
      previousBlockID: blockHeaderID(tip),
      generatorAddress: keys.address,
      transactionRoot: EMPTY_HASH,
      assetRoot: EMPTY_HASH,
      eventRoot: EMPTY_HASH,
      stateRoot: EMPTY_HASH,
      maxHeightPrevoted,
      maxHeightGenerated,
      impliesMaxPrevotes: chain.bft.impliesMaximalPrevotes(engine, {
        height,
        maxHeightGenerated,
        generatorAddress: keys.address,
      }),
      validatorsHash: EMPTY_HASH,
      aggregateCommit,
      signature: Buffer.alloc(0),
    };
    // the modules' assets (the random module's seed reveal); what they record off-chain is written with the block
    const onCommit: ((finalizedHeight: number) => void)[] = [];
    const assets = executor.machine.insertAssets({
      header: draft,
      chainID,
      offchain: db,
      logger: this.options.logger,
      onCommit: (write) => onCommit.push(write),
    });
    const executed = await this.#executeVerified({ header: draft, transactions: [], assets });
    const roots = { ...(await executor.roots(executed)), ...executor.contentRoots(executed) };
    this.#assertTip(tipBlock);
    const { signature: _unsigned, ...unsigned } = { ...draft, ...roots };
    const header = signBlockHeader(unsigned, chainID, keys.generatorPrivateKey);
    const block: Block = { header, transactions: executed.block.transactions, assets };
    const final = { ...executed, block };
    const finalizedBefore = chain.finalizedHeight();
    chain.commit(final, () => {
      putGeneratedInfoSync(db, keys.address, { height, maxHeightGenerated, maxHeightPrevoted });
      for (const write of onCommit) write(finalizedBefore);
    });
    this.options.logger.info(
      {
        id: blockHeaderID(header).toString('hex'),
        height,
        generatorAddress: keys.address.toString('hex'),
        numberOfTransactions: block.transactions.length,
      },
      'Generated new block',
    );
    this.options.onBlock?.(final);
    return block;
  }

  /** After waiting on a verifier: the block was built on this tip, which must still be the chain's. */
  #assertTip(tip: Block): void {
    if (this.options.chain.lastBlock() !== tip)
      throw new Error('The chain changed while the block was being generated');
  }
}

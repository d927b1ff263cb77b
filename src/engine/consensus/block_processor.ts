import type { Block } from '../../lib/chain/block.js';
import { blockHeaderID, blockHeaderSigningDigest, verifyBlockHeaderSignature } from '../../lib/chain/block.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import type { Chain } from '../chain/chain.js';
import type { BlockExecutor, BlockRoots } from '../execution/block_executor.js';
import { assertSignatures } from '../execution/deferred_signatures.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import { prefetchAggregateSignatures } from '../pools/aggregate_prefetch.js';
import type { BlsVerifier } from '../pools/bls_verifier.js';
import { checkingAhead } from '../pools/signature_prefetch.js';
import type { SignatureVerifier } from '../pools/signature_verifier.js';
import type { ExtraWrites } from '../state/state_db.js';
import type { AggregateCommitVerifier } from './aggregate_commit.js';
import { validatedTransactions } from './block_rules.js';
import type { HeaderSignatureAhead } from './header_verifier.js';
import { HeaderVerifier } from './header_verifier.js';

/** The verifiers of the asynchronous block path (in a node, the `bls` and `verify` pools). */
export interface BlockVerifiers {
  bls: BlsVerifier;
  signatures: SignatureVerifier;
}

export interface BlockProcessorOptions {
  chain: Chain;
  executor: BlockExecutor;
  aggregateCommits: AggregateCommitVerifier;
  chainID: Buffer;
  maxTransactionsSize: number;
  now?: () => number;
}

/**
 * A block received for the tip: its own rules and the consensus checks of its header, then
 * executed, its roots checked against the header, and committed.
 */
export class BlockProcessor {
  readonly #headers: HeaderVerifier;
  /** Signature checks of headers about to be applied, started ahead (prefetchHeaderSignatures). */
  readonly #signaturesAhead = new WeakMap<Block['header'], Promise<HeaderSignatureAhead | undefined>>();

  constructor(private readonly options: BlockProcessorOptions) {
    const { chain, aggregateCommits, chainID, now = () => Math.floor(Date.now() / 1000) } = options;
    this.#headers = new HeaderVerifier({ chain, aggregateCommits, chainID, now });
  }

  /** Everything on this thread. */
  processBlock(block: Block, options: { aggregateCommitVerified?: boolean } = {}): ExecutedBlock {
    const { chain, executor } = this.options;
    const prepared = validatedTransactions(block, this.options.maxTransactionsSize);
    this.#headers.verify(block.header, options.aggregateCommitVerified === true);
    const executed = executor.execute(block, undefined, prepared);
    this.#checkRoots(executed, executor.rootsOf(executed));
    chain.commit(executed);
    return executed;
  }

  /**
   * processBlock with the expensive checks in verifiers (in a node, the `bls` and `verify` pools):
   * the aggregate commit's signature before executing, the transactions' signatures (started
   * before the header's checks, so they run while it executes; a multisignature sender's
   * recorded while executing) before committing. A failure discards the executed block; so does a tip
   * that changed while the verifiers worked.
   */
  async processBlockVerifiedBy(block: Block, verifiers: BlockVerifiers): Promise<ExecutedBlock> {
    const prepared = this.validate(block);
    const tip = this.options.chain.lastBlock();
    const signatures = checkingAhead(verifiers.signatures, prepared);
    await this.verify(block, verifiers.bls);
    return this.executeVerified(block, prepared, { ...verifiers, signatures }, tip);
  }

  /** Starts the aggregate commits' signature checks of blocks about to be applied in order (AggregateCommitVerifier.prefetch). */
  prefetchAggregateCommits(headers: readonly Block['header'][], bls: BlsVerifier): void {
    this.options.aggregateCommits.prefetch(this.options.chain.engineView(), headers, bls);
  }

  /**
   * Starts the signature checks of headers about to be applied in order in `signatures` (the `verify` pool), each
   * under the key its generator has in the validator set of the tip's next block; `verify` takes a verdict whose
   * key is still the generator's then, and checks the others itself.
   */
  prefetchHeaderSignatures(headers: readonly Block['header'][], signatures: SignatureVerifier): void {
    const { chain, chainID } = this.options;
    const { validators } = chain.bft.getBFTParameters(chain.engineView(), chain.lastBlock().header.height + 1);
    const keys = new Map(validators.map((v) => [v.address.toString('latin1'), v.generatorKey]));
    for (const header of headers) {
      const key = keys.get(header.generatorAddress.toString('latin1'));
      if (key === undefined || this.#signaturesAhead.has(header)) continue;
      const verdict = signatures.verifyDigest(blockHeaderSigningDigest(header, chainID), header.signature, key).then(
        (valid) => ({ key, valid }),
        // a pool that fails (closed) leaves the check to verify
        () => undefined,
      );
      this.#signaturesAhead.set(header, verdict);
    }
  }

  /** Whether `header` carries a valid signature under `generatorKey` (on this thread). */
  signedBy(header: Block['header'], generatorKey: Buffer): boolean {
    return verifyBlockHeaderSignature(header, generatorKey, this.options.chainID);
  }

  /** Forgets prefetched aggregate-commit checks no block asked for. */
  clearPrefetchedAggregateCommits(): void {
    this.options.aggregateCommits.clearPrefetched();
  }

  /** The block's own rules, before any state is read (Klayr's validateBlock); its transactions prepared. */
  validate(block: Block): PreparedTransaction[] {
    return validatedTransactions(block, this.options.maxTransactionsSize);
  }

  /**
   * The consensus checks of the header against the tip (Klayr's verify), the aggregate commit's
   * signature in `bls`, then the modules' checks of the block's assets (Klayr's verifyAssets).
   */
  async verify(block: Block, bls: BlsVerifier): Promise<void> {
    const { chain, aggregateCommits, executor } = this.options;
    const signatureAhead = await this.#signaturesAhead.get(block.header);
    this.#signaturesAhead.delete(block.header);
    this.#headers.verify(block.header, true, signatureAhead);
    if (!(await aggregateCommits.verifyBy(chain.engineView(), block.header.aggregateCommit, bls))) {
      throw new Error(`Invalid aggregateCommit for the block with id: ${blockHeaderID(block.header).toString('hex')}`);
    }
    executor.verifyAssets(block);
  }

  /**
   * A validated and verified block executed on `tip` (which must still be the chain's), its
   * transactions' signatures checked in `verifiers.signatures`, its roots against its header, committed
   * (with the caller's `extra` records in the same transaction).
   */
  async executeVerified(
    block: Block,
    prepared: readonly PreparedTransaction[],
    verifiers: BlockVerifiers,
    tip: Block,
    extra?: ExtraWrites,
    /** Awaited between execution, roots and commit (a synchronization lets requests through there). */
    pause?: () => Promise<void>,
  ): Promise<ExecutedBlock> {
    const { chain, executor } = this.options;
    await prefetchAggregateSignatures(executor.aggregateSignatureChecks(block.transactions), verifiers.bls);
    this.#assertTip(tip);
    const executed = executor.execute(block, undefined, prepared, true);
    // the roots are computed while the `verify` pool finishes the signatures, and checked after them (a bad
    // signature is the error a block with both gets, as on the synchronous path)
    const computing = executor.roots(executed);
    // a block whose signatures fail never asks for them: their failure, if any, is not unhandled
    computing.catch(() => undefined);
    await assertSignatures(executed.signatureChecks ?? [], verifiers.signatures);
    await pause?.();
    const roots = await computing;
    this.#assertTip(tip);
    this.#checkRoots(executed, roots);
    await pause?.();
    this.#assertTip(tip);
    chain.commit(executed, extra);
    return executed;
  }

  /** An executed block received: its header must claim the roots it executed to. */
  #checkRoots(executed: ExecutedBlock, roots: BlockRoots): void {
    const { block } = executed;
    // computed for an error message only
    const id = (): string => blockHeaderID(block.header).toString('hex');
    if (!roots.validatorsHash.equals(block.header.validatorsHash))
      throw new Error(
        `Invalid validatorsHash ${block.header.validatorsHash.toString('hex')} of the block with id: ${id()}`,
      );
    if (!roots.eventRoot.equals(block.header.eventRoot))
      throw new Error(`Event root is not valid for the block with id: ${id()}`);
    if (!roots.stateRoot.equals(block.header.stateRoot))
      throw new Error(`State root is not valid for the block with id: ${id()}`);
  }

  /** After waiting on a verifier: the block was checked against this tip, which must still be the chain's. */
  #assertTip(tip: Block): void {
    if (this.options.chain.lastBlock() !== tip) throw new Error('The chain changed while the block was being verified');
  }
}

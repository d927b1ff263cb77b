import type { Logger } from 'pino';
import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID, signBlockHeader } from '../../lib/chain/block.js';
import { EMPTY_HASH } from '../../lib/tree/index.js';
import type { PreparedTransaction, TransactionObject } from '../../lib/transaction/index.js';
import { randomAssetCodec } from '../../modules/random/method.js';
import { nextSeedReveal } from '../../modules/random/next_reveal.js';
import { HashOnionStores } from '../../modules/random/offchain.js';
import { BLOCK_VERSION } from '../chain/processor.js';
import type { ChainProcessor, ExecutedBlock } from '../chain/processor.js';
import type { BinaryDB } from '../storage/database.js';
import { getGeneratedInfo, putGeneratedInfoSync } from './generated_info.js';
import type { GeneratorKeys } from './keys.js';
import type { CommitPool } from '../consensus/commit_pool.js';
import { RepeatedLog } from '../../lib/log/repeated_log.js';

export interface GeneratorOptions {
  chain: ChainProcessor;
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
  /** Certifies finalized blocks with the local validators' BLS keys and supplies aggregate commits. */
  commitPool?: CommitPool;
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

  constructor(private readonly options: GeneratorOptions) {
    this.#failures = new RepeatedLog(options.logger);
    for (const k of options.keys) this.#enabled.set(k.address.toString('hex'), k);
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
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
  }

  disable(address: Buffer): void {
    this.#enabled.delete(address.toString('hex'));
  }

  start(intervalMs = 1000): void {
    this.#timer ??= setInterval(() => this.tick(), intervalMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#failures.resolved();
  }

  /** Generates a block when the current slot is ours and has none yet; returns it, if any. */
  tick(): Block | undefined {
    if (this.#busy) return undefined;
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
      const block = this.generate(keys, now);
      this.#failures.resolved();
      return block;
    } catch (error) {
      this.#failures.report(error, 'Block generation failed');
      return undefined;
    } finally {
      this.#busy = false;
    }
  }

  /** After a block: if finality moved, the local validators sign the newly finalized certificates (LIP 0061). */
  certify(finalizedBefore: number): void {
    const pool = this.options.commitPool;
    if (pool === undefined) return;
    const { chain } = this.options;
    const finalized = chain.finalizedHeight();
    const from = Math.max(finalizedBefore, chain.maxRemovalHeight());
    if (finalized > from) pool.onFinalized(chain.engineView(), [...this.#enabled.values()], from, finalized, (h) => chain.headerAt(h));
    pool.prune(chain.bft.getBFTHeights(chain.engineView()).maxHeightCertified);
  }

  /** Builds, executes, signs and commits the next block as `keys`' validator at `timestamp`. */
  generate(keys: GeneratorKeys, timestamp: number): Block {
    const { chain, chainID, db } = this.options;
    const tip = chain.lastBlock().header;
    const height = tip.height + 1;
    const engine = chain.engineView();
    const { maxHeightPrevoted, maxHeightCertified } = chain.bft.getBFTHeights(engine);
    const info = getGeneratedInfo(db, keys.address);
    if (info.height >= height) throw new Error(`Validator ${keys.address.toString('hex')} already generated a block at height ${info.height}; generating height ${height} could contradict it`);
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
      impliesMaxPrevotes: chain.bft.impliesMaximalPrevotes(engine, { height, maxHeightGenerated, generatorAddress: keys.address }),
      validatorsHash: EMPTY_HASH,
      aggregateCommit: this.options.commitPool?.select(engine) ?? { height: maxHeightCertified, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
      signature: Buffer.alloc(0),
    };
    // the next hash of the validator's onion; without one the reveal is random (valid only as a first reveal)
    const onions = new HashOnionStores(db);
    const reveal = nextSeedReveal(onions, keys.address, height, () => this.options.logger.warn({ address: keys.address.toString('hex') }, 'All of the hash onion has been used already. Please update to the new hash onion.'));
    const assets = [{ module: 'random', data: randomAssetCodec.encode({ seedReveal: reveal.hash }) }];
    const executed = chain.execute(
      { header: draft, transactions: [], assets },
      { candidates: this.options.candidates?.() ?? [], maxTransactionsSize: this.options.maxTransactionsSize, ...(this.options.onRejected ? { onRejected: this.options.onRejected } : {}) },
    );
    const { signature: _unsigned, ...unsigned } = { ...draft, ...chain.rootsOf(executed) };
    const header = signBlockHeader(unsigned, chainID, keys.generatorPrivateKey);
    const block: Block = { header, transactions: executed.block.transactions, assets };
    const final = { ...executed, block };
    const finalizedBefore = chain.finalizedHeight();
    chain.commit(final, () => {
      putGeneratedInfoSync(db, keys.address, { height, maxHeightGenerated, maxHeightPrevoted });
      onions.recordUsed(keys.address, finalizedBefore, { count: reveal.count, height });
    });
    this.certify(finalizedBefore);
    this.options.logger.info({ id: blockHeaderID(header).toString('hex'), height, generatorAddress: keys.address.toString('hex'), numberOfTransactions: block.transactions.length }, 'Generated new block');
    this.options.onBlock?.(final);
    return block;
  }
}

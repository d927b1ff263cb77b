import type { Logger } from 'pino';
import type { Block } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import { Mutex } from '../../lib/mutex.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import type { Chain } from '../chain/chain.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import type { Peers } from '../network/peers.js';
import { checkingAhead } from '../pools/signature_prefetch.js';
import type { BlockProcessor, BlockVerifiers } from './block_processor.js';
import { ForkStatus, forkChoice } from './fork_choice.js';

export interface BlockReceiverOptions {
  chain: Chain;
  processor: BlockProcessor;
  /** In a node, the `bls` and `verify` pools. */
  verifiers: BlockVerifiers;
  peers: Pick<Peers, 'applyPenalty'>;
  logger: Logger;
  /** Unix seconds. */
  now?: () => number;
  /** While true (block synchronization runs), received blocks are ignored, as Klayr does. */
  syncing?: () => boolean;
  /** A received block passed its checks and is about to be executed: Klayr broadcasts it to peers here. */
  onBlockVerified?: (block: Block) => void;
  /** A received block (or a tip restored after a lost tie-break) was committed. */
  onBlockCommitted?: (executed: ExecutedBlock) => void;
  /** A received block competes with the chain (Klayr's fork event): DOUBLE_FORGING, TIE_BREAK, DIFFERENT_CHAIN, DISCARD. */
  onForked?: (block: Block) => void;
  /** The tip was deleted for a tie-breaking block: its transactions go back to the pool. */
  onBlockDeleted?: (block: Block) => void;
  /** A block of a better chain: synchronize with the peer. Awaited before the next received block is processed. */
  onSyncNeeded?: (block: Block, peerId: string) => void | Promise<void>;
}

/** What became of a received block. */
export interface ReceiveOutcome {
  /** The fork choice's verdict; left out when the block was ignored (syncing, stopped). */
  status?: ForkStatus;
  /** The block as committed. */
  committed?: ExecutedBlock;
  /** Why the block was not committed, when it was tried. */
  error?: Error;
  /** The sending peer was penalised (an invalid block: Klayr's ApplyPenaltyError). */
  penalized: boolean;
}

/** A block that is invalid as sent (its own rules, its header, its assets): its sender is banned. */
class InvalidBlockError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'InvalidBlockError';
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Blocks received from peers, one at a time (Klayr's Consensus.onBlockReceive and _execute): the
 * fork choice against the tip, then the block applied, the tip replaced by a tie-breaking block,
 * or the fork reported.
 */
export class BlockReceiver {
  readonly #mutex = new Mutex();
  readonly #now: () => number;
  /** When the tip, if received here, arrived: the fork choice's tie-break reads it. */
  #tipReceived?: { id: Buffer; receivedAt: number };
  #stopped = false;

  constructor(private readonly options: BlockReceiverOptions) {
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Queues a block received from `peerId`; resolves once it is processed. Never rejects. */
  async receive(block: Block, peerId: string): Promise<ReceiveOutcome> {
    if (this.#ignoring()) return { penalized: false };
    return this.#mutex.runExclusive(() => this.#process(block, peerId));
  }

  /** Runs `task` between received blocks (block synchronization, which must not interleave with them). */
  exclusive<T>(task: () => T | Promise<T>): Promise<T> {
    return this.#mutex.runExclusive(task);
  }

  /** Blocks received from now on are ignored; resolves once the block in progress is done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#mutex.runExclusive(() => undefined);
  }

  #ignoring(): boolean {
    if (this.#stopped) return true;
    if (this.options.syncing?.() === true) {
      this.options.logger.debug("Client is syncing. Can't process new block at the moment.");
      return true;
    }
    return false;
  }

  async #process(block: Block, peerId: string): Promise<ReceiveOutcome> {
    if (this.#ignoring()) return { penalized: false };
    const { chain, logger } = this.options;
    const receivedAt = this.#now();
    const tip = chain.lastBlock();
    const status = forkChoice(
      { header: block.header, receivedAt },
      { header: tip.header, ...this.#receivedAtOf(tip) },
      chain.bft,
      receivedAt,
    );
    const summary = {
      id: blockHeaderID(block.header).toString('hex'),
      height: block.header.height,
      generatorAddress: block.header.generatorAddress.toString('hex'),
      maxHeightPrevoted: block.header.maxHeightPrevoted,
      peerId,
    };
    try {
      switch (status) {
        case ForkStatus.IDENTICAL_BLOCK:
          logger.debug(summary, 'Block already processed');
          return { status, penalized: false };
        case ForkStatus.DISCARD:
        case ForkStatus.DOUBLE_FORGING:
          logger.info(summary, status === ForkStatus.DISCARD ? 'Discarding the block' : 'Detected a fork');
          this.options.onForked?.(block);
          return { status, penalized: false };
        case ForkStatus.DIFFERENT_CHAIN:
          logger.info(summary, 'Detected a fork');
          this.options.onForked?.(block);
          await this.options.onSyncNeeded?.(block, peerId);
          return { status, penalized: false };
        case ForkStatus.TIE_BREAK:
          logger.info(summary, 'Detected a fork');
          this.options.onForked?.(block);
          return await this.#tieBreak(block, tip, receivedAt);
        case ForkStatus.VALID_BLOCK:
          return {
            status,
            committed: await this.#executeValidated(block, this.#validate(block), receivedAt),
            penalized: false,
          };
      }
    } catch (error) {
      const penalized = error instanceof InvalidBlockError;
      if (penalized) this.options.peers.applyPenalty(peerId, PENALTY_BAN);
      logger.warn(
        { ...summary, err: error },
        penalized ? 'Received an invalid block. Applying a penalty to the peer' : 'Failed to process a received block',
      );
      return { status, error: asError(error), penalized };
    }
  }

  /**
   * A block for the tip's place from a later slot, the tip having arrived late: the tip is
   * deleted and the block applied; if that fails, the tip is applied again. The sender is only
   * punished for a block that breaks its own rules, as Klayr does.
   */
  async #tieBreak(block: Block, tip: Block, receivedAt: number): Promise<ReceiveOutcome> {
    const { chain, logger } = this.options;
    const prepared = this.#validate(block);
    const tipReceived = this.#receivedAtOf(tip);
    chain.deleteLastBlock();
    this.options.onBlockDeleted?.(tip);
    try {
      const committed = await this.#executeValidated(block, prepared, receivedAt);
      return { status: ForkStatus.TIE_BREAK, committed, penalized: false };
    } catch (error) {
      logger.error(
        { id: blockHeaderID(block.header).toString('hex'), err: error },
        'Failed to apply newly received block. restoring previous block.',
      );
      await this.#executeValidated(tip, this.options.processor.validate(tip), tipReceived.receivedAt, false);
      return { status: ForkStatus.TIE_BREAK, error: asError(error), penalized: false };
    }
  }

  #validate(block: Block): PreparedTransaction[] {
    try {
      return this.options.processor.validate(block);
    } catch (error) {
      throw new InvalidBlockError(error);
    }
  }

  /** Klayr's _executeValidated: verified with its assets (a failure bans the sender), broadcast, executed, committed. */
  async #executeValidated(
    block: Block,
    prepared: readonly PreparedTransaction[],
    receivedAt: number | undefined,
    broadcast = true,
  ): Promise<ExecutedBlock> {
    const { chain, processor, verifiers } = this.options;
    const tip = chain.lastBlock();
    const signatures = checkingAhead(verifiers.signatures, prepared);
    try {
      await processor.verify(block, verifiers.bls);
    } catch (error) {
      throw new InvalidBlockError(error);
    }
    if (broadcast) this.options.onBlockVerified?.(block);
    const executed = await processor.executeVerified(block, prepared, { ...verifiers, signatures }, tip);
    this.#tipReceived = receivedAt === undefined ? undefined : { id: blockHeaderID(executed.block.header), receivedAt };
    this.options.logger.info(
      {
        id: blockHeaderID(executed.block.header).toString('hex'),
        height: executed.block.header.height,
        numberOfTransactions: executed.block.transactions.length,
        numberOfEvents: executed.events.length,
      },
      'Block executed',
    );
    this.options.onBlockCommitted?.(executed);
    return executed;
  }

  #receivedAtOf(tip: Block): { receivedAt?: number } {
    const received = this.#tipReceived;
    if (received === undefined || !received.id.equals(blockHeaderID(tip.header))) return {};
    return { receivedAt: received.receivedAt };
  }
}

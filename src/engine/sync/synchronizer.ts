import type { Logger } from 'pino';
import type { Block } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import { ipOfPeerId } from '../../lib/chain/peer_id.js';
import type { Peers } from '../network/peers.js';
import { AbortError, ApplyPenaltyAndAbortError, ApplyPenaltyAndRestartError, RestartError } from './errors.js';
import type { SyncMechanism } from './mechanism.js';
import type { SyncProgress } from './progress.js';

export interface SynchronizerOptions {
  /** Tried in order: the first valid for a block runs (Klayr: block synchronization, then fast chain switching). */
  mechanisms: readonly SyncMechanism[];
  /** The received block's own rules, checked before anything else (Klayr's validateBlock). */
  validate: (block: Block) => unknown;
  /**
   * Why a received block must not start a synchronization (SyncChain.startRefusal: a forged signature), or
   * undefined; checked before the synchronization starts, so that a forged block never pauses block generation.
   */
  startRefusal?: (block: Block) => string | undefined;
  /** Milliseconds (Date.now by default). */
  clock?: () => number;
  /** The tip, for the logs. */
  tip: () => Block;
  peers: Pick<Peers, 'applyPenalty'>;
  logger: Logger;
  /** Klayr restarts without limit; Kestrel gives up after this many restarts in a row. */
  maxRestarts?: number;
  /** Height, target and rate of the synchronization in progress. */
  progress?: SyncProgress;
  /** What init runs: the blocks of a chain switch that did not end, restored when better (SyncChain.restoreUponStartup). */
  restoreUponStartup?: () => Promise<void>;
  /**
   * The chain's write-behind mode, on for each synchronization (its blocks reach LMDB in the
   * background, several per transaction) and ended, everything written, before it is over.
   */
  writeBehind?: { begin(): void; end(): Promise<void> };
}

const DEFAULT_MAX_RESTARTS = 20;

/**
 * After a synchronization started by a peer's block fails with an error none of the mechanisms' rules covers
 * (a request that timed out: the peer, or the best peer, did not answer), that peer's blocks start none for
 * this long, whatever port they come from (Kestrel's rule: in Klayr, a peer that sends a block of a better
 * chain and never answers stops block generation for as long as it keeps sending it). Its blocks that extend
 * the tip are taken as usual, and other peers' blocks start one.
 */
export const FAILED_SYNC_COOLDOWN_MS = 60_000;

/**
 * Block synchronization with the peer of a better chain (klayr-framework's Synchronizer.run with
 * Consensus._sync around it): one synchronization at a time; a mechanism chosen for the received
 * block and run; restarted on a RestartError, restarted after penalising the peer on an
 * ApplyPenaltyAndRestartError, ended on an AbortError (after penalising the peer on an
 * ApplyPenaltyAndAbortError). `isActive` (the node's `syncing`) holds from start to end.
 */
export class Synchronizer {
  #running?: Promise<void>;
  #stopped = false;
  /** The IPs of peers whose block started a synchronization that failed, until when (ms). */
  readonly #coolingDown = new Map<string, number>();
  readonly #clock: () => number;

  constructor(private readonly options: SynchronizerOptions) {
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Klayr's Synchronizer.init, before the node takes blocks from peers: restores the blocks a
   * chain switch left in the temp table when they are better than the tip. A failure is logged
   * and the node starts on the chain it has.
   */
  async init(): Promise<void> {
    try {
      await this.options.restoreUponStartup?.();
    } catch (error) {
      this.options.logger.error({ err: error }, 'Failed to restore blocks from temp table upon startup');
    }
  }

  get isActive(): boolean {
    return this.#running !== undefined;
  }

  /** Synchronizes with the chain `block` (received from `peerId`) belongs to; nothing while a synchronization runs. */
  async run(block: Block, peerId: string): Promise<void> {
    if (this.#running !== undefined || this.#stopped) {
      this.options.logger.debug('Synchronizer is already running.');
      return;
    }
    const refusal = this.#startRefusal(block, peerId);
    if (refusal !== undefined) {
      const { header } = block;
      this.options.logger.info(
        { blockId: blockHeaderID(header).toString('hex'), height: header.height, peerId, reason: refusal },
        'Not synchronizing from the received block',
      );
      return;
    }
    // set before the first line of #sync runs: it reads isActive synchronously
    let resolve = (): void => undefined;
    this.#running = new Promise<void>((done) => {
      resolve = done;
    });
    this.options.progress?.begin(block.header.height, this.options.tip().header.height);
    this.options.writeBehind?.begin();
    try {
      await this.#sync(block, peerId);
    } catch (error) {
      this.#coolDown(peerId);
      throw error;
    } finally {
      try {
        await this.options.writeBehind?.end();
      } catch (error) {
        this.options.logger.error({ err: error }, 'Writing the synchronized blocks to the database failed');
      }
      this.options.progress?.end();
      this.#running = undefined;
      resolve();
    }
  }

  #coolDown(peerId: string): void {
    const now = this.#clock();
    for (const [ip, until] of this.#coolingDown) if (until <= now) this.#coolingDown.delete(ip);
    this.#coolingDown.set(ipOfPeerId(peerId), now + FAILED_SYNC_COOLDOWN_MS);
  }

  #startRefusal(block: Block, peerId: string): string | undefined {
    const ip = ipOfPeerId(peerId);
    const until = this.#coolingDown.get(ip);
    if (until !== undefined) {
      if (this.#clock() < until)
        return `A synchronization a block from this peer's IP started failed less than ${FAILED_SYNC_COOLDOWN_MS / 1000} s ago`;
      this.#coolingDown.delete(ip);
    }
    return this.options.startRefusal?.(block);
  }

  /** Ends the synchronization in progress between two blocks; resolves once it has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const mechanism of this.options.mechanisms) mechanism.stop();
    await this.#running;
  }

  async #sync(block: Block, peerId: string): Promise<void> {
    const { logger, peers } = this.options;
    const maxRestarts = this.options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
    for (let restarts = 0; !this.#stopped; restarts++) {
      if (restarts > maxRestarts) {
        logger.warn(
          { restarts: maxRestarts },
          'Synchronization restarted too many times in a row: giving up until the next block',
        );
        return;
      }
      try {
        await this.#runOnce(block, peerId);
        return;
      } catch (error) {
        if (error instanceof ApplyPenaltyAndRestartError) {
          logger.warn({ err: error, reason: error.reason }, 'Applying penalty and restarting synchronization');
          peers.applyPenalty(error.peerId, PENALTY_BAN);
        } else if (error instanceof RestartError) {
          logger.info({ err: error, reason: error.reason }, 'Restarting synchronization');
        } else if (error instanceof ApplyPenaltyAndAbortError) {
          logger.warn({ err: error, reason: error.reason }, 'Applying penalty and aborting synchronization');
          peers.applyPenalty(error.peerId, PENALTY_BAN);
          return;
        } else if (error instanceof AbortError) {
          logger.info({ err: error, reason: error.reason }, 'Aborting synchronization mechanism');
          return;
        } else throw error;
      }
    }
  }

  async #runOnce(block: Block, peerId: string): Promise<void> {
    const { logger, mechanisms } = this.options;
    const blockId = blockHeaderID(block.header).toString('hex');
    logger.info(
      { blockId, height: block.header.height, generator: block.header.generatorAddress.toString('hex') },
      'Starting synchronizer',
    );
    this.options.validate(block);
    const mechanism = mechanisms.find((m) => m.isValidFor(block, peerId));
    if (mechanism === undefined) {
      logger.info({ blockId }, 'Syncing mechanism could not be determined for the given block');
      return;
    }
    logger.info(`Triggering: ${mechanism.name}`);
    await mechanism.run(block, peerId);
    const tip = this.options.tip().header;
    logger.info(
      { lastBlockHeight: tip.height, lastBlockID: blockHeaderID(tip).toString('hex'), mechanism: mechanism.name },
      'Synchronization finished.',
    );
  }
}

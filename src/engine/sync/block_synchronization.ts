import { setTimeout as sleep } from 'node:timers/promises';
import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import { isDifferentChain } from '../consensus/fork_choice.js';
import type { Peers } from '../network/peers.js';
import { BatchPeers } from './batch_peers.js';
import { computeBestPeer } from './best_peer.js';
import {
  AbortError,
  ApplyPenaltyAndAbortError,
  ApplyPenaltyAndRestartError,
  BlockProcessingError,
  RestartError,
} from './errors.js';
import { computeBlockHeightsList } from './heights.js';
import type { MechanismParts, SyncMechanism } from './mechanism.js';
import { MAX_FAILED_BLOCK_REQUESTS, upTo } from './mechanism.js';
import { yieldToIO } from './yield_to_io.js';

/** A getBlocksFromId batch as the pipeline holds it, with the peer that served it. */
type FetchedBatch = { peerId: string } & (
  | { kind: 'unanswered'; error: unknown }
  | { kind: 'invalid'; error: unknown }
  | {
      kind: 'ready';
      blocks: Block[];
      prepared: PreparedTransaction[][];
      last: Block;
      reached: boolean;
      /** Why the blocks do not build on the requested block one on the other; undefined when they do. */
      unlinked: string | undefined;
    }
);

/** A batch's blocks could not all be applied; `peerId` served them. */
class BatchProcessingError extends BlockProcessingError {
  constructor(
    readonly peerId: string,
    cause: unknown,
  ) {
    super(cause);
  }
}

/** Blocks in height order that do not each build on the one before, the first on `fromID`: the reason, or undefined. */
const brokenLink = (blocks: readonly Block[], fromID: Buffer): string | undefined => {
  let previousID = fromID;
  let previousHeight: number | undefined;
  for (const block of blocks) {
    const { header } = block;
    if (!header.previousBlockID.equals(previousID))
      return `block ${header.height} does not build on ${previousID.toString('hex')}`;
    if (previousHeight !== undefined && header.height !== previousHeight + 1)
      return `block ${header.height} follows height ${previousHeight}`;
    previousID = blockHeaderID(header);
    previousHeight = header.height;
  }
  return undefined;
};

/** Block synchronization is for a node more than three rounds of slots behind its last finalized block. */
export const blockSynchronizationApplies = (currentSlot: number, finalizedSlot: number, validators: number): boolean =>
  currentSlot - finalizedSlot > validators * 3;

/** Klayr's blocksPerRequestLimit (heights offered per getHighestCommonBlock) and requestLimit. */
const HEIGHTS_PER_REQUEST = 10;
const COMMON_BLOCK_REQUEST_LIMIT = 3;

const hex = (id: Buffer): string => id.toString('hex');

/**
 * Between two requests to the last peer of a synchronization after it failed: ten failed requests in a row end
 * the synchronization with the peer penalised (Klayr's rule), which a dead peer reaches in milliseconds; a peer
 * of the same chain announces its tip at most every 2.5 s, so it gets the time to join first.
 */
export const LAST_PEER_RETRY_MS = 500;

/**
 * klayr-framework's BlockSynchronizationMechanism: from the best connected peer, its tip checked,
 * back to the last common block (the blocks above it deleted and saved), then the peer's blocks
 * applied in batches up to the received block. When a batch fails, the old chain is restored
 * unless the new one is already better.
 *
 * Where Klayr fetches every batch from the best peer, Kestrel spreads them, in turn, over the
 * connected peers that announce the best peer's tip or the received block as their tip (the same
 * chain), and a peer that fails a request, answers with blocks that do not build on the requested
 * one or break their own rules is set aside and the batch asked of the next one (see #pipeline).
 */
export class BlockSynchronization implements SyncMechanism {
  readonly name = 'BlockSynchronizationMechanism';
  #stopped = false;

  constructor(
    private readonly parts: MechanismParts & {
      peers: Pick<Peers, 'connectedPeers' | 'applyPenalty'>;
      /** Picks the best peer among equals; Math.random by default. */
      random?: () => number;
      /** The pause before asking the last peer left again after it failed (LAST_PEER_RETRY_MS by default). */
      lastPeerRetryMs?: number;
    },
  ) {}

  stop(): void {
    this.#stopped = true;
  }

  isValidFor(): boolean {
    const { chain } = this.parts;
    const finalizedSlot = chain.slotNumber(chain.finalizedHeader().timestamp);
    return blockSynchronizationApplies(chain.currentSlot(), finalizedSlot, chain.currentValidators().length);
  }

  async run(received: Block): Promise<void> {
    const { chain, peers, random } = this.parts;
    const best = computeBestPeer(peers.connectedPeers(), chain.tip().header, random);
    chain.logger.debug({ peerId: best.peerId }, 'Successfully computed the best peer');
    await this.#requestAndValidateLastBlock(best.peerId);
    const common = await this.#revertToLastCommonBlock(best.peerId);
    const tips = [best.options.lastBlockID, blockHeaderID(received.header)];
    await this.#applyBlocksUpTo(
      received,
      common,
      new BatchPeers(best.peerId, () => this.#peersAnnouncing(best.peerId, tips)),
    );
  }

  /**
   * The connected peers whose announced tip is one of `tips` or the one the best peer announces now (its
   * chain, grown since the start: a peer that follows it a block behind announces its tips a moment later):
   * they hold the best peer's chain up to it.
   */
  #peersAnnouncing(best: string, tips: readonly Buffer[]): string[] {
    const connected = this.parts.peers.connectedPeers();
    const bestNow = connected.find(({ peerId }) => peerId === best)?.options?.lastBlockID;
    const chainTips = bestNow === undefined ? tips : [...tips, bestNow];
    return connected.flatMap(({ peerId, options }) => {
      const tip = options?.lastBlockID;
      return tip !== undefined && chainTips.some((id) => id.equals(tip)) ? [peerId] : [];
    });
  }

  /** The peer's tip must be valid and better than (or the same as) this chain's. */
  async #requestAndValidateLastBlock(peerId: string): Promise<void> {
    const { chain, peerBlocks } = this.parts;
    const peerTip = await peerBlocks.lastBlock(peerId);
    const tip = chain.tip().header;
    let valid = true;
    try {
      chain.validate(peerTip);
    } catch {
      valid = false;
    }
    const better = isDifferentChain(tip, peerTip.header) || blockHeaderID(peerTip.header).equals(blockHeaderID(tip));
    if (!valid || !better)
      throw new ApplyPenaltyAndRestartError(
        peerId,
        'The tip of the chain of the peer is not valid or is not in a different chain',
      );
  }

  async #revertToLastCommonBlock(peerId: string): Promise<BlockHeader> {
    const { chain } = this.parts;
    const common = await this.#requestLastCommonBlock(peerId);
    if (common === undefined)
      throw new ApplyPenaltyAndRestartError(
        peerId,
        'No common block has been found between the chain and the targeted peer',
      );
    chain.logger.debug({ id: hex(blockHeaderID(common)), height: common.height }, 'Found common block');
    if (common.height < chain.finalizedHeight())
      throw new ApplyPenaltyAndRestartError(
        peerId,
        'The last common block height is less than the finalized height of the current chain',
      );
    chain.deleteAfter(common.height, true, () => this.#stopped);
    return common;
  }

  /** The round-end heights offered ten at a time, down from the tip's round, never below the finalized height. */
  async #requestLastCommonBlock(peerId: string): Promise<BlockHeader | undefined> {
    const { chain, peerBlocks } = this.parts;
    const validators = chain.currentValidators().length;
    let requests = 1;
    let common: BlockHeader | undefined;
    let round = Math.ceil(chain.tip().header.height / validators);
    let height = round * validators;
    while (
      common === undefined &&
      requests < COMMON_BLOCK_REQUEST_LIMIT &&
      height >= chain.finalizedHeight() &&
      !this.#stopped
    ) {
      const heights = computeBlockHeightsList(chain.finalizedHeight(), validators, HEIGHTS_PER_REQUEST, round);
      try {
        common = await peerBlocks.highestCommonBlock(peerId, chain.idsAtHeights(heights));
      } catch (error) {
        // an answer that does not decode is the peer's fault, not a failed request
        if (error instanceof ApplyPenaltyAndAbortError) throw error;
        chain.logger.debug({ err: error, peerId }, 'Highest common block request failed');
        requests += 1;
        continue;
      }
      round -= HEIGHTS_PER_REQUEST;
      height = round * validators;
    }
    return common;
  }

  async #applyBlocksUpTo(received: Block, common: BlockHeader, peers: BatchPeers): Promise<void> {
    const { chain } = this.parts;
    try {
      await this.#applyBlocksWithinIDs(peers, blockHeaderID(common), blockHeaderID(received.header));
    } catch (error) {
      if (error instanceof BatchProcessingError) await this.#handleBlockProcessingError(error, common, error.peerId);
      // Kestrel beyond Klayr (which restores only after a block that fails): the peers stopped answering, so the
      // old chain comes back when it is better than what they served
      if (!this.#stopped) await this.#restoreIfBetter(common);
      throw error;
    }
    // a node stopped in the middle of the synchronization restores the saved blocks on its next start when they are better
    if (this.#stopped) return;
    chain.clearSaved();
    chain.logger.debug({ peerIds: peers.peerIds }, 'Successfully requested and applied blocks from peer');
  }

  /**
   * Klayr's loop over getBlocksFromId batches, pipelined: as soon as a batch has arrived, the next
   * one is requested and, once it arrives, checked by its own rules and its signatures sent to the
   * `verify` pool (prefetchSignatures), all while the current batch executes on this thread.
   */
  async #applyBlocksWithinIDs(peers: BatchPeers, fromID: Buffer, toID: Buffer): Promise<void> {
    try {
      await this.#pipeline(peers, fromID, toID);
    } finally {
      this.parts.chain.clearPrefetched();
    }
  }

  /**
   * Batches are chained by ID (each asks for the blocks after the last one received), so they are
   * fetched one after the other, each from the next peer in turn (a peer's requests paced by
   * PeerBlocks). A batch that fails comes again from the next peer:
   * - unanswered (a timeout, an error, no blocks): the peer is set aside for this synchronization (but
   *   the peer that named the block asked after: the best peer for the common block, or the server of the
   *   last batch), as Klayr counts the attempt. 10 failed attempts end it with a penalty: for the peer that
   *   named the block when it failed at least twice (the others could not serve what it named), otherwise
   *   for the peer that failed last. When every peer serving the batches announces this chain's tip (the
   *   block asked after) as its own, the synchronization ends at once, without a penalty: the received
   *   block is not on their chain;
   * - blocks that do not build on the requested one or break their own rules: the peer is banned
   *   (Klayr's penalty for a peer whose blocks fail) and set aside.
   * The last peer left is never set aside: its batches go as in Klayr (blocks that break their rules
   * fail the batch before any is applied; blocks out of chain are applied until one fails), and a
   * failed batch, as a block that fails to apply, is Klayr's BlockProcessingError for the peer that
   * served it.
   */
  async #pipeline(peers: BatchPeers, fromID: Buffer, toID: Buffer): Promise<void> {
    const { chain } = this.parts;
    let failedAttempts = 0;
    let lastFailed: string | undefined;
    let lastFetchedID = fromID;
    // who named lastFetchedID (the best peer the common block, then each batch's server its last block), and how
    // often it failed to serve the blocks after it: it stays in the turns, and when it keeps failing with the
    // others, the one who named the block is the one to blame
    let supplier = peers.best;
    let supplierFailures = 0;
    let finished = false;
    let ahead: Promise<FetchedBatch> | undefined;
    while (!finished && failedAttempts < MAX_FAILED_BLOCK_REQUESTS && !this.#stopped) {
      const batch = await (ahead ?? this.#fetchBatch(peers.next(), lastFetchedID, toID));
      ahead = undefined;
      if (batch.kind === 'unanswered') {
        if (this.#servedTheirWholeChain(peers))
          throw new AbortError(
            'The block that started the synchronization is not on the chain of the peers serving it: synchronized up to their tip',
          );
        failedAttempts += 1;
        lastFailed = batch.peerId;
        if (batch.peerId === supplier) supplierFailures += 1;
        // one failure of the peer that named the block (a timeout) leaves it in the turns: it can serve what it named
        const kept = batch.peerId === supplier && peers.peerIds.length > 1;
        const replaced = kept || peers.setAside(batch.peerId);
        chain.logger.debug({ err: batch.error, peerId: batch.peerId, replaced }, 'Blocks request failed');
        // the last peer left failed: a peer that announces the chain a moment later joins before it is asked again
        if (!replaced && failedAttempts < MAX_FAILED_BLOCK_REQUESTS)
          await sleep(this.parts.lastPeerRetryMs ?? LAST_PEER_RETRY_MS);
        continue;
      }
      const fault = batch.kind === 'invalid' ? batch.error : batch.unlinked;
      if (fault !== undefined && peers.setAside(batch.peerId)) {
        chain.logger.warn(
          { err: fault, peerId: batch.peerId },
          'Blocks from the peer failed their checks: penalising it and fetching them from another peer',
        );
        this.parts.peers.applyPenalty(batch.peerId, PENALTY_BAN);
        continue;
      }
      if (batch.kind === 'invalid') {
        chain.logger.error({ err: batch.error, peerId: batch.peerId }, 'Block validation failed');
        throw new BatchProcessingError(batch.peerId, batch.error);
      }
      lastFetchedID = blockHeaderID(batch.last.header);
      supplier = batch.peerId;
      supplierFailures = 0;
      chain.logger.debug(
        { peerId: batch.peerId, blocks: batch.blocks.length, lastHeight: batch.last.header.height },
        'Blocks received',
      );
      if (!batch.reached) ahead = this.#fetchBatch(peers.next(), lastFetchedID, toID);
      try {
        for (const [i, block] of batch.blocks.entries()) {
          if (this.#stopped) return;
          await chain.apply(block, batch.prepared[i]);
          // I/O between blocks: the next batch's answer is read, checked and sent to the pools while this one runs
          await yieldToIO();
        }
      } catch (error) {
        chain.logger.error({ err: error, peerId: batch.peerId }, 'Block processing failed');
        throw new BatchProcessingError(batch.peerId, error);
      }
      finished = blockHeaderID(chain.tip().header).equals(toID);
    }
    if (failedAttempts === MAX_FAILED_BLOCK_REQUESTS)
      throw new ApplyPenaltyAndRestartError(
        supplierFailures >= 2 ? supplier : (lastFailed ?? peers.next()),
        "Peer didn't return any block after requesting blocks",
      );
  }

  /**
   * Every peer serving the batches announces this chain's tip (the block asked after: its ID, height and
   * maxHeightPrevoted) as its own: they have no block after it, so the block that started the synchronization is
   * not on their chain (a peer sent a block of a chain none of them has). Kestrel ends the synchronization there,
   * where Klayr asks the best peer until ten failures ban it. A peer that announces the tip's ID with a greater
   * height or maxHeightPrevoted (what made it the best peer) contradicts itself: its failures count.
   */
  #servedTheirWholeChain(peers: BatchPeers): boolean {
    const tip = this.parts.chain.tip().header;
    const tipID = blockHeaderID(tip);
    const announced = new Map(this.parts.peers.connectedPeers().map((p) => [p.peerId, p.options]));
    return peers.peerIds.every((peerId) => {
      const options = announced.get(peerId);
      return (
        options?.lastBlockID?.equals(tipID) === true &&
        options.height === tip.height &&
        options.maxHeightPrevoted === tip.maxHeightPrevoted
      );
    });
  }

  /**
   * One batch from the peer, checked by the blocks' own rules and whether they build on `fromID`
   * one on the other, their signatures prefetched; never rejects.
   */
  async #fetchBatch(peerId: string, fromID: Buffer, toID: Buffer): Promise<FetchedBatch> {
    const { chain, peerBlocks } = this.parts;
    let fetched: Block[];
    try {
      fetched = await peerBlocks.blocksFrom(peerId, fromID);
    } catch (error) {
      // blocks that do not decode are blocks that break their own rules
      return { peerId, kind: error instanceof ApplyPenaltyAndAbortError ? 'invalid' : 'unanswered', error };
    }
    const { blocks, last, reached } = upTo(fetched, (block) => blockHeaderID(block.header).equals(toID));
    if (last === undefined) return { peerId, kind: 'unanswered', error: new Error(`Peer ${peerId} sent no block`) };
    let prepared: PreparedTransaction[][];
    try {
      prepared = blocks.map((block) => chain.validate(block));
    } catch (error) {
      return { peerId, kind: 'invalid', error };
    }
    chain.prefetchSignatures(prepared.flat());
    chain.prefetchHeaderChecks(blocks);
    return { peerId, kind: 'ready', blocks, prepared, last, reached, unlinked: brokenLink(blocks, fromID) };
  }

  /**
   * The old chain comes back when the new one is not better than it, and the peer is penalised;
   * otherwise the new chain is kept and the synchronization restarts.
   */
  async #handleBlockProcessingError(error: BlockProcessingError, common: BlockHeader, peerId: string): Promise<never> {
    const { chain } = this.parts;
    chain.logger.debug({ err: error.cause }, 'Failed to apply obtained blocks from peer');
    if (chain.savedTip() === undefined) {
      chain.logger.error('Blocks temp table should not be empty');
      throw new RestartError('Blocks temp table should not be empty');
    }
    if (await this.#restoreIfBetter(common))
      throw new ApplyPenaltyAndRestartError(
        peerId,
        'New tip of the chain has no preference over the previous tip before synchronizing',
      );
    chain.logger.info('Restarting block synchronization');
    throw new RestartError('The list of blocks has not been fully applied. Trying again');
  }

  /**
   * The saved blocks (deleted back to `common`) come back when the chain they ended is not worse than the tip
   * now; otherwise they are dropped. Whether the old chain was the better one.
   */
  async #restoreIfBetter(common: BlockHeader): Promise<boolean> {
    const { chain } = this.parts;
    const tipBefore = chain.savedTip();
    if (tipBefore === undefined) return false;
    if (isDifferentChain(tipBefore.header, chain.tip().header)) {
      chain.clearSaved();
      return false;
    }
    chain.logger.debug(
      { currentTip: hex(blockHeaderID(chain.tip().header)), previousTip: hex(blockHeaderID(tipBefore.header)) },
      'Previous tip of the chain has preference over current tip. Restoring chain from temp table',
    );
    try {
      chain.deleteAfter(common.height, false);
      await chain.restoreSaved();
      chain.clearSaved();
    } catch (restoreError) {
      chain.logger.error({ err: restoreError }, 'Failed to restore blocks from blocks temp table');
    }
    return true;
  }
}

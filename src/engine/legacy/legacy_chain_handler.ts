import type { Logger } from 'pino';
import type { LegacyBlock, LegacyBlockHeader } from '../../lib/chain/legacy_block.js';
import {
  decodeLegacyBlock,
  decodeLegacyBlockHeader,
  validateLegacyBlock,
  validateLegacyBlockAlone,
} from '../../lib/chain/legacy_block.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { BlocksResponse } from '../../lib/chain/p2p_schemas.js';
import { getBlocksFromIdResponseSchema, getLegacyBlocksFromIdRequestSchema } from '../../lib/chain/p2p_schemas.js';
import { compile } from '../../lib/codec/index.js';
import type { LegacyBracketConfig } from '../endpoint/legacy.js';
import type { Peers } from '../network/peers.js';
import type { LegacyStore } from './legacy_store.js';

export const LEGACY_BLOCKS_PROCEDURE = 'getLegacyBlocksFromId';
/** klayr-framework's engine/legacy/constants.js. */
const FAILED_SYNC_RETRY_MS = 12_000;
const MAX_FAILED_ATTEMPTS = 10;
/**
 * Klayr waits 5 s after each stored batch (SUCCESS_SYNC_RETRY_TIMEOUT): 101 blocks per 5 s and bracket.
 * Kestrel spaces its requests 200 ms apart, all brackets together: at most 50 per 10 s, half the 100 that
 * a serving node allows a peer before it penalises.
 */
const REQUEST_SPACING_MS = 200;
const LOG = { engineModule: 'legacy' };

interface LegacyBlocksRequest {
  blockID: Buffer;
  snapshotBlockID: Buffer;
}
const requestCodec = compile<LegacyBlocksRequest>(getLegacyBlocksFromIdRequestSchema);
const responseCodec = compile<BlocksResponse>(getBlocksFromIdResponseSchema);

export interface LegacyChainParts {
  brackets: readonly LegacyBracketConfig[];
  store: LegacyStore;
  peers: Pick<Peers, 'requestFromPeer' | 'applyPenalty' | 'connectedPeers'>;
  logger: Logger;
  /** Every bracket synced so far, by snapshot block ID: what the node announces as its node info's `legacy`. */
  onSynced?: (snapshotBlockIDs: readonly Buffer[]) => void;
  /** Waits in ms: after a failed round (Klayr's 12 s), and between two requests. */
  waits?: { failed?: number; spacing?: number };
  random?: () => number;
}

/**
 * klayr-framework's LegacyChainHandler.init, run on every start whether `legacy.sync` is on or not:
 * each bracket of the config gets its stored progress, made on first start and kept after.
 */
export const initLegacyBrackets = (store: LegacyStore, brackets: readonly LegacyBracketConfig[]): void => {
  for (const bracket of brackets) {
    const id = Buffer.from(bracket.snapshotBlockID, 'hex');
    const stored = store.bracket(id);
    if (stored === undefined) {
      store.setBracket(id, {
        startHeight: bracket.startHeight,
        snapshotBlockHeight: bracket.snapshotHeight,
        lastBlockHeight: bracket.snapshotHeight,
      });
      continue;
    }
    // Klayr refreshes the stored heights only when the start block is stored (the bracket is complete)
    if (store.idAtHeight(bracket.startHeight) !== undefined)
      store.setBracket(id, {
        startHeight: bracket.startHeight,
        snapshotBlockHeight: bracket.snapshotHeight,
        lastBlockHeight: bracket.startHeight,
      });
  }
};

/**
 * A peer's answer, highest block first, checked as klayr-framework's validateLegacyBlock checks each
 * block against the one above it; Kestrel also checks the highest block on its own and that it is the
 * one right below the lowest stored block (Klayr checks neither). Throws what is wrong.
 */
const checkedBatch = (
  data: Buffer | undefined,
  lastBlockHeight: number,
  lowest: LegacyBlockHeader | undefined,
): LegacyBlock[] => {
  const { blocks: encoded } = responseCodec.decode(data ?? Buffer.alloc(0));
  if (encoded.length === 0) throw new Error('Received empty response');
  const blocks = encoded.map(decodeLegacyBlock);
  const top = blocks[0] as LegacyBlock;
  if (top.header.height !== lastBlockHeight - 1)
    throw new Error(`Received block at height ${top.header.height}, expected ${lastBlockHeight - 1}`);
  if (lowest !== undefined && !top.id.equals(lowest.previousBlockID))
    throw new Error(`Received block ${top.id.toString('hex')} is not previous block of the lowest stored block`);
  validateLegacyBlockAlone(top);
  for (let i = 1; i < blocks.length; i++) validateLegacyBlock(blocks[i] as LegacyBlock, blocks[i - 1] as LegacyBlock);
  return blocks;
};

/**
 * klayr-framework's LegacyChainHandler: with `legacy.sync`, each bracket's legacy blocks are fetched
 * backwards from its snapshot block, 101 at a time, from peers that announce the bracket, checked
 * link by link, and stored with the bracket's progress (the lowest height stored), so that a restart
 * resumes where it stopped. A bracket is synced when its start height is stored; the node then
 * announces it in its node info, and serves it.
 */
export class LegacyChainHandler {
  readonly #synced: Buffer[] = [];
  readonly #running: Promise<void>[] = [];
  #stopped = false;
  #nextRequestAt = 0;
  #turn: Promise<void> = Promise.resolve();
  readonly #wakers = new Set<() => void>();

  constructor(private readonly parts: LegacyChainParts) {}

  /** The snapshot block IDs of the brackets synced so far. */
  synced(): readonly Buffer[] {
    return this.#synced;
  }

  /** Starts each bracket's sync (brackets already complete are announced at once); returns without waiting. */
  start(): void {
    for (const bracket of this.parts.brackets) {
      const snapshotBlockID = Buffer.from(bracket.snapshotBlockID, 'hex');
      const info = this.parts.store.bracket(snapshotBlockID);
      if (info === undefined) continue;
      if (info.lastBlockHeight <= bracket.startHeight) {
        this.#markSynced(snapshotBlockID);
        continue;
      }
      this.parts.logger.info(
        LOG,
        `Started syncing legacy blocks for bracket with snapshotBlockID ${bracket.snapshotBlockID}`,
      );
      this.#running.push(
        this.#syncBracket(bracket, snapshotBlockID).catch((err: unknown) =>
          this.parts.logger.error({ err, ...LOG }, 'Failed to sync block with error'),
        ),
      );
    }
  }

  /** Ends every sync between two steps: a request in flight is left to its peer, nothing is written after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const wake of this.#wakers) wake();
    await Promise.all(this.#running);
  }

  async #syncBracket(bracket: LegacyBracketConfig, snapshotBlockID: Buffer): Promise<void> {
    const { store, logger } = this.parts;
    let failures = 0;
    while (!this.#stopped) {
      const info = store.bracket(snapshotBlockID);
      if (info === undefined) return;
      if (info.lastBlockHeight <= bracket.startHeight) {
        logger.info(LOG, `Finished syncing legacy blocks for bracket with snapshotBlockID ${bracket.snapshotBlockID}`);
        this.#markSynced(snapshotBlockID);
        return;
      }
      const outcome = await this.#fetchBatch(bracket, snapshotBlockID, info.lastBlockHeight);
      if (outcome === 'stored') {
        failures = 0;
      } else if (outcome === 'no-peer' || ++failures > MAX_FAILED_ATTEMPTS) {
        if (outcome !== 'no-peer')
          logger.warn(
            { ...LOG, method: 'requestFromPeer' },
            `Failed ${MAX_FAILED_ATTEMPTS} times to request from peer.`,
          );
        failures = 0;
        logger.debug(LOG, `Retrying syncing legacy blocks for bracket with snapshotBlockID ${bracket.snapshotBlockID}`);
        await this.#wait(this.parts.waits?.failed ?? FAILED_SYNC_RETRY_MS);
      }
    }
  }

  /** One request for the blocks below the lowest stored one, checked and stored. */
  async #fetchBatch(
    bracket: LegacyBracketConfig,
    snapshotBlockID: Buffer,
    lastBlockHeight: number,
  ): Promise<'stored' | 'no-peer' | 'failed'> {
    const { store, peers, logger } = this.parts;
    const candidates = peers
      .connectedPeers()
      .filter(({ options }) => options?.legacy?.some((id) => id.equals(snapshotBlockID)) === true);
    if (candidates.length === 0) {
      logger.warn({ ...LOG, method: 'syncBlocks' }, 'No peer found with legacy info.');
      return 'no-peer';
    }
    const random = this.parts.random ?? Math.random;
    const { peerId } = candidates[Math.min(candidates.length - 1, Math.floor(random() * candidates.length))] as {
      peerId: string;
    };
    // the lowest stored block; none yet: the snapshot block, which the legacy store does not hold
    const lowestID = store.idAtHeight(lastBlockHeight) ?? snapshotBlockID;
    const lowestHeader = store.headerByID(lowestID);
    await this.#spaceRequests();
    if (this.#stopped) return 'failed';
    let data: Buffer | undefined;
    try {
      const request = requestCodec.encode({ blockID: lowestID, snapshotBlockID });
      data = await this.#unlessStopped(peers.requestFromPeer(peerId, LEGACY_BLOCKS_PROCEDURE, request));
    } catch (err) {
      logger.debug({ err, ...LOG, peerId }, 'Legacy blocks request failed');
      return 'failed';
    }
    if (this.#stopped) return 'failed';
    let blocks: LegacyBlock[];
    try {
      blocks = checkedBatch(data, lastBlockHeight, lowestHeader && decodeLegacyBlockHeader(lowestHeader));
    } catch (err) {
      logger.warn({ ...LOG, peerId }, `${(err as Error).message}: Applying a penalty to the peer`);
      peers.applyPenalty(peerId, PENALTY_BAN);
      return 'failed';
    }
    const kept = blocks.filter((b) => b.header.height >= bracket.startHeight);
    const bottom = kept.at(-1);
    if (bottom === undefined) return 'failed';
    store.saveBlocks(kept, {
      snapshotBlockID,
      info: {
        startHeight: bracket.startHeight,
        snapshotBlockHeight: bracket.snapshotHeight,
        lastBlockHeight: bottom.header.height,
      },
    });
    logger.debug(LOG, `Saved blocks from ${(kept[0] as LegacyBlock).header.height} to ${bottom.header.height}`);
    return 'stored';
  }

  #markSynced(snapshotBlockID: Buffer): void {
    if (this.#synced.some((id) => id.equals(snapshotBlockID))) return;
    this.#synced.push(snapshotBlockID);
    this.parts.onSynced?.([...this.#synced]);
  }

  /** Waits for this request's turn: requests of every bracket go out at least the spacing apart. */
  #spaceRequests(): Promise<void> {
    const spacing = this.parts.waits?.spacing ?? REQUEST_SPACING_MS;
    const turn = this.#turn.then(async () => {
      const wait = this.#nextRequestAt - Date.now();
      if (wait > 0) await this.#wait(wait);
      // from when this request really goes: a late timer does not shorten the next gap
      this.#nextRequestAt = Date.now() + spacing;
    });
    this.#turn = turn;
    return turn;
  }

  /** Waits `ms`, less when the handler stops meanwhile. */
  #wait(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakers.add(done);
    });
  }

  /** A peer's answer, or undefined data once the handler stops (the request is then left to finish alone). */
  async #unlessStopped(request: Promise<{ data: Buffer | undefined }>): Promise<Buffer | undefined> {
    let wake: (() => void) | undefined;
    const stopped = new Promise<undefined>((resolve) => {
      wake = () => resolve(undefined);
      this.#wakers.add(wake);
    });
    try {
      const answer = await Promise.race([request, stopped]);
      return answer?.data;
    } finally {
      if (wake !== undefined) this.#wakers.delete(wake);
    }
  }
}

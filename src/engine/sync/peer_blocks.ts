import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { decodeBlock } from '../../lib/chain/block.js';
import type {
  BlocksResponse,
  GetBlocksFromIdRequest,
  HighestCommonBlockRequest,
  HighestCommonBlockResponse,
} from '../../lib/chain/p2p_schemas.js';
import {
  getBlocksFromIdRequestSchema,
  getBlocksFromIdResponseSchema,
  getHighestCommonBlockRequestSchema,
  getHighestCommonBlockResponseSchema,
} from '../../lib/chain/p2p_schemas.js';
import { compile } from '../../lib/codec/index.js';
import type { Peers } from '../network/peers.js';
import { ApplyPenaltyAndAbortError, ApplyPenaltyAndRestartError } from './errors.js';
import { RequestPacer } from './request_pacer.js';

/** Klayr's window of per-peer rate limits, and what this node asks of one peer in it: under Klayr's 100. */
const RATE_WINDOW_MS = 10_000;
const BLOCK_REQUESTS_PER_WINDOW = 90;

const codecs = {
  blocksRequest: compile<GetBlocksFromIdRequest>(getBlocksFromIdRequestSchema),
  blocksResponse: compile<BlocksResponse>(getBlocksFromIdResponseSchema),
  commonRequest: compile<HighestCommonBlockRequest>(getHighestCommonBlockRequestSchema),
  commonResponse: compile<HighestCommonBlockResponse>(getHighestCommonBlockResponseSchema),
};

/** A peer's bytes that do not decode: the peer is penalised and the attempt aborted. */
const decodedFrom = <T>(peerId: string, what: string, decode: () => T): T => {
  try {
    return decode();
  } catch (error) {
    throw new ApplyPenaltyAndAbortError(peerId, `Undecodable ${what}: ${(error as Error).message}`);
  }
};

/**
 * The synchronizer's requests to one peer (klayr-framework's BaseSynchronizer): its tip, the
 * highest block it shares with this chain, the blocks after an ID.
 */
export class PeerBlocks {
  /** A fast follower would pass Klayr's limit of 100 getBlocksFromId per peer in 10 s, and be banned. */
  readonly #blockRequests = new RequestPacer(BLOCK_REQUESTS_PER_WINDOW, RATE_WINDOW_MS);

  constructor(
    private readonly peers: Pick<Peers, 'requestFromPeer'>,
    /** This chain's header with an ID, if it has that block. */
    private readonly headerByID: (id: Buffer) => BlockHeader | undefined,
  ) {}

  async lastBlock(peerId: string): Promise<Block> {
    const { data } = await this.peers.requestFromPeer(peerId, 'getLastBlock');
    if (data === undefined || data.length === 0)
      throw new ApplyPenaltyAndRestartError(peerId, 'Peer did not provide its last block');
    return decodedFrom(peerId, 'last block', () => decodeBlock(data));
  }

  /**
   * The highest of `ids` the peer has, as this chain's header; undefined when the peer has none.
   * Throws (the caller asks again) when the peer names a block this chain does not have.
   */
  async highestCommonBlock(peerId: string, ids: readonly Buffer[]): Promise<BlockHeader | undefined> {
    const request = codecs.commonRequest.encode({ ids: [...ids] });
    const { data } = await this.peers.requestFromPeer(peerId, 'getHighestCommonBlock', request);
    const { id } = decodedFrom(peerId, 'common block', () => codecs.commonResponse.decode(data ?? Buffer.alloc(0)));
    if (id === undefined || id.length === 0) return undefined;
    if (id.length !== 32) throw new ApplyPenaltyAndAbortError(peerId, 'Invalid common block response format');
    const header = this.headerByID(id);
    if (header === undefined) throw new Error(`The common block ${id.toString('hex')} is not in this chain`);
    return header;
  }

  /** The blocks the peer has after `fromID` (at most 53 of them); throws when it sends none. */
  async blocksFrom(peerId: string, fromID: Buffer): Promise<Block[]> {
    await this.#blockRequests.slot(peerId);
    const request = codecs.blocksRequest.encode({ blockId: fromID });
    const { data } = await this.peers.requestFromPeer(peerId, 'getBlocksFromId', request);
    if (data === undefined || data.length === 0) throw new Error(`Peer ${peerId} did not respond with block`);
    return decodedFrom(peerId, 'blocks', () => codecs.blocksResponse.decode(data).blocks.map((b) => decodeBlock(b)));
  }
}

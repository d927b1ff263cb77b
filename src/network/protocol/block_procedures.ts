import type { Logger } from 'pino';
import type { Block } from '../../lib/chain/block.js';
import { decodeBlock } from '../../lib/chain/block.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type {
  BlocksResponse,
  GetBlocksFromIdRequest,
  HighestCommonBlockRequest,
  HighestCommonBlockResponse,
  PostBlockEvent,
} from '../../lib/chain/p2p_schemas.js';
import {
  getBlocksFromIdRequestSchema,
  getBlocksFromIdResponseSchema,
  getHighestCommonBlockRequestSchema,
  getHighestCommonBlockResponseSchema,
  postBlockEventSchema,
} from '../../lib/chain/p2p_schemas.js';
import { compile } from '../../lib/codec/index.js';
import { allDistinct, decodePayload } from './decode_payload.js';
import type { Network } from './network.js';

/** What peers may read of the chain. */
export interface ChainSource {
  lastBlockBytes(): Buffer;
  heightOfID(id: Buffer): number | undefined;
  blockBytesAtHeight(height: number): Buffer | undefined;
  highestKnownID(ids: readonly Buffer[]): Buffer | undefined;
}

/** Where blocks from peers go (the engine's block receiver). */
export interface BlockSink {
  syncing(): boolean;
  receive(block: Block, peerId: string): Promise<void>;
}

/** klayr-framework's rate limits per 10 s (consensus/network_endpoint.js). */
const LIMITS = { getLastBlock: 10, getHighestCommonBlock: 10, getBlocksFromId: 100 } as const;
/** Blocks answered to getBlocksFromId after the requested one (`lastBlockHeight + 53`). */
export const BLOCKS_PER_REQUEST = 53;

/** getLastBlock, getBlocksFromId, getHighestCommonBlock and postBlock, as klayr-framework's consensus serves them. */
export const registerBlockProcedures = (
  network: Network,
  chain: ChainSource,
  sink: BlockSink,
  logger: Logger,
): void => {
  const limit = network.rateLimiter;
  network.registerProcedure('getLastBlock', (_data, peerId) => {
    limit.count('getLastBlock', peerId, LIMITS.getLastBlock);
    return chain.lastBlockBytes();
  });

  network.registerProcedure('getBlocksFromId', (data, peerId) => {
    limit.count('getBlocksFromId', peerId, LIMITS.getBlocksFromId);
    const { blockId } = decodePayload<GetBlocksFromIdRequest>(
      network,
      getBlocksFromIdRequestSchema,
      data,
      peerId,
      'getBlocksFromId',
    );
    const height = chain.heightOfID(blockId);
    if (height === undefined) throw new Error(`Block with id ${blockId.toString('hex')} was not found`);
    const blocks: Buffer[] = [];
    for (let h = height + 1; h <= height + BLOCKS_PER_REQUEST; h++) {
      const bytes = chain.blockBytesAtHeight(h);
      if (bytes === undefined) break;
      blocks.push(bytes);
    }
    return compile<BlocksResponse>(getBlocksFromIdResponseSchema).encode({ blocks });
  });

  network.registerProcedure('getHighestCommonBlock', (data, peerId) => {
    limit.count('getHighestCommonBlock', peerId, LIMITS.getHighestCommonBlock);
    const { ids } = decodePayload<HighestCommonBlockRequest>(
      network,
      getHighestCommonBlockRequestSchema,
      data,
      peerId,
      'getHighestCommonBlock',
    );
    // Klayr penalises repeated IDs and still answers
    if (!allDistinct(ids)) network.applyPenalty(peerId, PENALTY_BAN);
    const id = chain.highestKnownID(ids) ?? Buffer.alloc(0);
    return compile<HighestCommonBlockResponse>(getHighestCommonBlockResponseSchema).encode({ id });
  });

  network.registerEvent('postBlock', (data, peerId) => {
    if (sink.syncing()) return;
    const { block: bytes } = decodePayload<PostBlockEvent>(network, postBlockEventSchema, data, peerId, 'postBlock');
    let block: Block;
    try {
      block = decodeBlock(bytes);
    } catch (error) {
      network.applyPenalty(peerId, PENALTY_BAN);
      throw error;
    }
    sink
      .receive(block, peerId)
      .catch((err: unknown) => logger.error({ err, peerId }, 'Failed to handle a received block'));
  });
};

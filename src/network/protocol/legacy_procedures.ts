import type { Logger } from 'pino';
import { databaseKeyNotFound, KLAYR_DB_KEY, klayrChainKey } from '../../lib/chain/klayr_not_found.js';
import type { LegacyBracketInfo } from '../../lib/chain/legacy_block.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { BlocksResponse } from '../../lib/chain/p2p_schemas.js';
import { getBlocksFromIdResponseSchema, getLegacyBlocksFromIdRequestSchema } from '../../lib/chain/p2p_schemas.js';
import { compile } from '../../lib/codec/index.js';
import { decodePayload } from './decode_payload.js';
import type { Network } from './network.js';

/** What peers may read of the legacy chain this node stored. */
export interface LegacyBlockSource {
  bracket(snapshotBlockID: Buffer): LegacyBracketInfo | undefined;
  heightOfID(id: Buffer): number | undefined;
  /** The encoded legacy blocks with from <= height <= to, highest first. */
  blocksBetween(from: number, to: number): Buffer[];
}

const PROCEDURE = 'getLegacyBlocksFromId';
/** klayr-framework's LEGACY_BLOCKS_FROM_IDS_RATE_LIMIT_FREQUENCY, per peer in 10 s. */
const RATE_LIMIT = 100;
/** The blocks answered below the requested one: 101, Klayr's `lastBlockHeight - 100` to `lastBlockHeight`. */
const BLOCKS_BELOW = 100;

interface LegacyBlocksRequest {
  blockID: Buffer;
  snapshotBlockID: Buffer;
}

/** getLegacyBlocksFromId, as klayr-framework's LegacyNetworkEndpoint serves it. */
export const registerLegacyProcedures = (network: Network, source: LegacyBlockSource, logger: Logger): void => {
  network.registerProcedure(PROCEDURE, (data, peerId) => {
    network.rateLimiter.count(PROCEDURE, peerId, RATE_LIMIT);
    const { blockID, snapshotBlockID } = decodePayload<LegacyBlocksRequest>(
      network,
      getLegacyBlocksFromIdRequestSchema,
      data,
      peerId,
      PROCEDURE,
    );
    const bracket = source.bracket(snapshotBlockID);
    if (bracket === undefined) {
      logger.warn({ peerId }, 'Received invalid snapshotBlockID: Applying a penalty to the peer');
      network.applyPenalty(peerId, PENALTY_BAN);
      // lisk-db's NotFoundError for Klayr's bracket key (0x02 || snapshotBlockID)
      throw databaseKeyNotFound(klayrChainKey(KLAYR_DB_KEY.legacyBrackets, snapshotBlockID));
    }
    const fromHeight = snapshotBlockID.equals(blockID) ? bracket.snapshotBlockHeight : source.heightOfID(blockID);
    const encode = compile<BlocksResponse>(getBlocksFromIdResponseSchema);
    if (fromHeight === undefined) return encode.encode({ blocks: [] });
    const lastBlockHeight = fromHeight - 1;
    const fetchFromHeight =
      bracket.startHeight >= lastBlockHeight - (BLOCKS_BELOW - 1)
        ? bracket.startHeight
        : lastBlockHeight - BLOCKS_BELOW;
    logger.debug(
      { peerId, engineModule: 'legacy' },
      `Responding to "${PROCEDURE}" with blocks from height ${fetchFromHeight} to ${lastBlockHeight}`,
    );
    return encode.encode({ blocks: source.blocksBetween(fetchFromHeight, lastBlockHeight) });
  });
};

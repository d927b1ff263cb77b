import { databaseKeyNotFound } from '../../lib/chain/klayr_not_found.js';
import { compile, LastWritten, RecentDecodes } from '../../lib/codec/index.js';
import { readUInt32 } from '../../lib/codec/varint.js';
import { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import {
  EMPTY_KEY,
  MODULE_STORE_PREFIX_BFT,
  STORE_PREFIX_BFT_PARAMETERS,
  STORE_PREFIX_BFT_VOTES,
} from './constants.js';
import { bftVotesSchema } from './schemas.js';
import type { BFTHeights, BFTVotes, ReadonlyBFTVotes } from './types.js';

export const bftParametersStore = (state: StateReadWriter): SubStore =>
  new SubStore(state, MODULE_STORE_PREFIX_BFT, STORE_PREFIX_BFT_PARAMETERS);

export const bftVotesStore = (state: StateReadWriter): SubStore =>
  new SubStore(state, MODULE_STORE_PREFIX_BFT, STORE_PREFIX_BFT_VOTES);

/** Parameter keys are the height as 4 bytes big-endian, so key order is height order. */
export const heightKey = (height: number): Buffer => {
  const key = Buffer.alloc(4);
  key.writeUIntBE(height, 0, 4);
  return key;
};

export const keyHeight = (key: Buffer): number => key.readUInt32BE(0);

const missingVotes = (): Error => {
  const key = Buffer.concat([MODULE_STORE_PREFIX_BFT, STORE_PREFIX_BFT_VOTES, EMPTY_KEY]);
  return databaseKeyNotFound(key);
};

const votesCodec = compile<BFTVotes>(bftVotesSchema);

const copyVotes = (votes: BFTVotes): BFTVotes => ({
  maxHeightPrevoted: votes.maxHeightPrevoted,
  maxHeightPrecommitted: votes.maxHeightPrecommitted,
  maxHeightCertified: votes.maxHeightCertified,
  // field by field: an object spread took 8 times as long for the block infos (23 µs against 3)
  blockBFTInfos: votes.blockBFTInfos.map((info) => ({
    height: info.height,
    generatorAddress: info.generatorAddress,
    maxHeightGenerated: info.maxHeightGenerated,
    maxHeightPrevoted: info.maxHeightPrevoted,
    prevoteWeight: info.prevoteWeight,
    precommitWeight: info.precommitWeight,
  })),
  activeValidatorsVoteInfo: votes.activeValidatorsVoteInfo.map((info) => ({
    address: info.address,
    minActiveHeight: info.minActiveHeight,
    largestHeightPrecommit: info.largestHeightPrecommit,
  })),
});

/** The next block reads the record back twice (its header's checks, BFT's vote update): 14 KB decoded for each. */
const lastWritten = new LastWritten<BFTVotes>(votesCodec, copyVotes);

/** The BFT votes record, decoded for the caller to change and write back. */
export const readBFTVotes = (state: StateReadWriter): BFTVotes => {
  const bytes = bftVotesStore(state).get(EMPTY_KEY);
  if (bytes === undefined) throw missingVotes();
  return lastWritten.decode(bytes);
};

// a received block's header checks read the record twice, as it stands before the block
const sharedVotes = new RecentDecodes<BFTVotes>(votesCodec, 2);

/** The BFT votes record to read only: shared with the other readers of the same record, never to be changed. */
export const readBFTVotesShared = (state: StateReadWriter): ReadonlyBFTVotes => {
  const bytes = bftVotesStore(state).get(EMPTY_KEY);
  if (bytes === undefined) throw missingVotes();
  return lastWritten.sharedOf(bytes) ?? sharedVotes.decode(bytes);
};

/**
 * The three heights that open the BFT votes record (fields 1-3, uint32 varints, in field order as the codec
 * writes them), read without decoding its blocks' and validators' lists: the record is a few kilobytes and
 * its heights are read several times per block. Anything other than those three fields first decodes it whole.
 */
export const readBFTHeights = (state: StateReadWriter): BFTHeights => {
  const bytes = bftVotesStore(state).get(EMPTY_KEY);
  if (bytes === undefined) return readBFTVotes(state);
  const cursor = { buf: bytes, pos: 0 };
  const heights: number[] = [];
  for (let field = 1; field <= 3; field++) {
    if (cursor.pos >= bytes.length || bytes[cursor.pos] !== field << 3) return readBFTVotes(state);
    cursor.pos++;
    heights.push(readUInt32(cursor, bytes.length));
  }
  const [maxHeightPrevoted, maxHeightPrecommitted, maxHeightCertified] = heights as [number, number, number];
  return { maxHeightPrevoted, maxHeightPrecommitted, maxHeightCertified };
};

export const writeBFTVotes = (state: StateReadWriter, votes: BFTVotes): void => {
  // the state keeps the very bytes LastWritten holds: the next block's reads find them by identity
  bftVotesStore(state).setOwned(EMPTY_KEY, lastWritten.encode(votes));
};

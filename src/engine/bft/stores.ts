import { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import {
  EMPTY_KEY,
  MODULE_STORE_PREFIX_BFT,
  STORE_PREFIX_BFT_PARAMETERS,
  STORE_PREFIX_BFT_VOTES,
} from './constants.js';
import { bftVotesSchema } from './schemas.js';
import type { BFTVotes } from './types.js';

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

export const readBFTVotes = (state: StateReadWriter): BFTVotes => {
  const votes = bftVotesStore(state).getWithSchema<BFTVotes>(EMPTY_KEY, bftVotesSchema);
  if (votes === undefined) {
    const key = Buffer.concat([MODULE_STORE_PREFIX_BFT, STORE_PREFIX_BFT_VOTES, EMPTY_KEY]);
    throw new Error(`Specified key ${key.toString('hex')} does not exist`);
  }
  return votes;
};

export const writeBFTVotes = (state: StateReadWriter, votes: BFTVotes): void => {
  bftVotesStore(state).setWithSchema(EMPTY_KEY, votes, bftVotesSchema);
};

import type { StateReadWriter } from '../state/types.js';
import { MODULE_NAME_BFT } from './constants.js';
import type { BFTConfig } from './method.js';
import { BFTMethod } from './method.js';
import { BFTParametersCache, deleteBFTParameters } from './parameters.js';
import { bftParametersStore, readBFTVotes, writeBFTVotes } from './stores.js';
import type { BFTBlockHeader, BFTHeader } from './types.js';
import {
  insertBlockBFTInfo,
  newestBlockHeight,
  oldestBlockHeight,
  updateMaxHeightCertified,
  updateMaxHeightPrecommitted,
  updateMaxHeightPrevoted,
  updatePrevotesPrecommits,
} from './votes.js';

/** LIP 0058 BFT: the engine-side votes and validator-set history, byte-compatible with Klayr's. */
export class BFTModule {
  readonly name = MODULE_NAME_BFT;
  readonly method: BFTMethod;
  readonly #maxLengthBlockBFTInfos: number;

  constructor(config: BFTConfig) {
    this.method = new BFTMethod(config);
    this.#maxLengthBlockBFTInfos = 3 * config.batchSize;
  }

  /** Starts the votes at the genesis height; the genesis validator set follows through setBFTParameters. */
  initGenesisState(state: StateReadWriter, header: Pick<BFTHeader, 'height'>): void {
    writeBFTVotes(state, {
      maxHeightPrevoted: header.height,
      maxHeightPrecommitted: header.height,
      maxHeightCertified: header.height,
      blockBFTInfos: [],
      activeValidatorsVoteInfo: [],
    });
  }

  /**
   * Counts the block's votes and moves the BFT heights, then drops parameters no longer needed:
   * those older than both the oldest block held and `maxRemovalHeight` (the commit pool's floor).
   */
  beforeTransactionsExecute(state: StateReadWriter, header: BFTBlockHeader, maxRemovalHeight: number): void {
    const paramsStore = bftParametersStore(state);
    const paramsCache = new BFTParametersCache(paramsStore);
    const votes = readBFTVotes(state);
    insertBlockBFTInfo(votes, header, this.#maxLengthBlockBFTInfos);
    paramsCache.cache(oldestBlockHeight(votes), newestBlockHeight(votes));
    updatePrevotesPrecommits(votes, paramsCache);
    updateMaxHeightPrevoted(votes, paramsCache);
    updateMaxHeightPrecommitted(votes, paramsCache);
    updateMaxHeightCertified(votes, header);
    writeBFTVotes(state, votes);
    deleteBFTParameters(paramsStore, Math.min(oldestBlockHeight(votes), maxRemovalHeight));
  }
}

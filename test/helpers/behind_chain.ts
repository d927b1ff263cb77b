import type { OfflineChainParams } from './offline_chain.js';

/** The offline chain of sync_behind and the CLI tests (one cache for all): 400 blocks, every 10th with 5 transfers, kept at height 20 too. */
export const BEHIND_STOPPED_AT = 20;
export const BEHIND_CHAIN: OfflineChainParams = {
  blocks: 400,
  transferEvery: 10,
  transfersPerBlock: 5,
  maxTransactionsSize: 15_360,
  stops: [BEHIND_STOPPED_AT],
};
export const BEHIND_CACHE = `kestrel-test/behind-v2-b${BEHIND_CHAIN.blocks}-e${BEHIND_CHAIN.transferEvery}-t${BEHIND_CHAIN.transfersPerBlock}-s${BEHIND_STOPPED_AT}`;

import type { Chain } from '../engine/chain/chain.js';
import type { SyncProgress } from '../engine/sync/index.js';
import type { RPCMetrics } from '../rpc/metrics.js';

/** The chain's heights and the pool's size on /metrics, read at scrape time. */
export const watchChainMetrics = (metrics: RPCMetrics, chain: Chain, poolSize: () => number): void => {
  metrics.watchValue('kestrel_chain_height', 'Height of the last block', () => chain.lastBlock().header.height);
  metrics.watchValue('kestrel_chain_finalized_height', 'Finalized height (BFT maxHeightPrecommitted)', () =>
    chain.finalizedHeight(),
  );
  metrics.watchValue(
    'kestrel_chain_max_height_prevoted',
    'BFT maxHeightPrevoted',
    () => chain.bft.getBFTHeights(chain.engineView()).maxHeightPrevoted,
  );
  metrics.watchValue(
    'kestrel_chain_max_height_certified',
    'BFT maxHeightCertified',
    () => chain.bft.getBFTHeights(chain.engineView()).maxHeightCertified,
  );
  metrics.watchValue('kestrel_txpool_transactions', 'Transactions in the pool', poolSize);
};

/** Block synchronization on /metrics: its target and height (0 when none runs), its rate, the blocks it committed. */
export const watchSyncMetrics = (metrics: RPCMetrics, progress: SyncProgress): void => {
  metrics.watchValue(
    'kestrel_sync_target_height',
    'Height the running synchronization goes to (0: none)',
    () => progress.snapshot().target,
  );
  metrics.watchValue(
    'kestrel_sync_blocks_per_second',
    'Blocks per second of the running synchronization',
    () => progress.snapshot().blocksPerSecond,
  );
  metrics.watchValue(
    'kestrel_sync_blocks',
    'Blocks committed by synchronizations since start',
    () => progress.snapshot().blocks,
  );
};

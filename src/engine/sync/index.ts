import type { Logger } from 'pino';
import type { Block } from '../../lib/chain/block.js';
import type { BlockStore } from '../chain/block_store.js';
import type { Chain } from '../chain/chain.js';
import type { TempBlockStore } from '../chain/temp_block_store.js';
import type { BlockProcessor, BlockVerifiers } from '../consensus/block_processor.js';
import type { ExecutedBlock } from '../execution/executed_block.js';
import type { Peers } from '../network/peers.js';
import { BlockSynchronization } from './block_synchronization.js';
import { FastChainSwitching } from './fast_chain_switching.js';
import { PeerBlocks } from './peer_blocks.js';
import { SyncProgress } from './progress.js';
import { SyncChain } from './sync_chain.js';
import { Synchronizer } from './synchronizer.js';

export type { SyncProgressSnapshot } from './progress.js';
export { SyncProgress } from './progress.js';
export { Synchronizer } from './synchronizer.js';

export interface SyncParts {
  chain: Chain;
  blocks: BlockStore;
  tempBlocks: TempBlockStore;
  processor: BlockProcessor;
  verifiers: BlockVerifiers;
  peers: Pick<Peers, 'requestFromPeer' | 'applyPenalty' | 'connectedPeers'>;
  logger: Logger;
  onBlockCommitted?: (executed: ExecutedBlock) => void;
  onBlockDeleted?: (block: Block) => void;
  now?: () => number;
  /** Where the synchronization's progress is counted (one is made when left out). */
  progress?: SyncProgress;
  /** Commits of synchronized blocks written behind (storage/write_behind.ts); true by default. */
  writeBehind?: boolean;
  /** The synchronizer lets the event loop run between two blocks (SyncChainOptions.yieldBetweenBlocks); false by default. */
  yieldBetweenBlocks?: boolean;
}

/** Klayr's synchronizer: block synchronization first, then fast chain switching. */
export const createSynchronizer = (parts: SyncParts): Synchronizer => {
  const progress = parts.progress ?? new SyncProgress(parts.logger);
  const chain = new SyncChain({
    ...parts,
    onBlockCommitted: (executed) => {
      progress.committed(executed.block.header.height);
      parts.onBlockCommitted?.(executed);
    },
  });
  const peerBlocks = new PeerBlocks(parts.peers, (id) => chain.headerByID(id));
  const synchronizer = new Synchronizer({
    mechanisms: [
      new BlockSynchronization({ chain, peerBlocks, peers: parts.peers }),
      new FastChainSwitching({ chain, peerBlocks }),
    ],
    validate: (block) => chain.validate(block),
    startRefusal: (block) => chain.startRefusal(block),
    tip: () => chain.tip(),
    peers: parts.peers,
    logger: parts.logger,
    progress,
    restoreUponStartup: () => chain.restoreUponStartup(),
    ...(parts.writeBehind === false
      ? {}
      : { writeBehind: { begin: () => parts.chain.beginWriteBehind(), end: () => parts.chain.endWriteBehind() } }),
  });
  // what a restart after a crash would find: the synchronized blocks are durable up to here
  parts.chain.onStored((height) => parts.logger.info({ height }, 'Synchronized blocks stored'));
  return synchronizer;
};

import type { Block } from '../../lib/chain/block.js';
import type { PeerBlocks } from './peer_blocks.js';
import type { SyncChain } from './sync_chain.js';

/** What the mechanisms use of the chain (SyncChain in a node). */
export type MechanismChain = Pick<
  SyncChain,
  | 'logger'
  | 'tip'
  | 'finalizedHeight'
  | 'finalizedHeader'
  | 'currentValidators'
  | 'slotNumber'
  | 'currentSlot'
  | 'idsAtHeights'
  | 'validate'
  | 'prefetchSignatures'
  | 'prefetchHeaderChecks'
  | 'clearPrefetched'
  | 'apply'
  | 'deleteAfter'
  | 'savedTip'
  | 'restoreSaved'
  | 'clearSaved'
>;

/** What the mechanisms ask of a peer (PeerBlocks in a node). */
export type MechanismPeerBlocks = Pick<PeerBlocks, 'lastBlock' | 'highestCommonBlock' | 'blocksFrom'>;

/** One way to reach a better chain (Klayr's synchronization mechanisms). */
export interface SyncMechanism {
  /** As Klayr's class name, for the logs. */
  readonly name: string;
  /** Whether this mechanism handles a better chain announced by `block` from `peerId`. */
  isValidFor(block: Block, peerId: string): boolean;
  run(block: Block, peerId: string): Promise<void>;
  /** Ends a run between two blocks. */
  stop(): void;
}

/** What both mechanisms work with. */
export interface MechanismParts {
  chain: MechanismChain;
  peerBlocks: MechanismPeerBlocks;
}

/** Klayr's maxFailedAttempts for getBlocksFromId in a row. */
export const MAX_FAILED_BLOCK_REQUESTS = 10;

/** Fetched blocks in height order, cut after the target when they hold it; `last` is the highest fetched. */
export const upTo = (
  fetched: readonly Block[],
  isTarget: (block: Block) => boolean,
): { blocks: Block[]; reached: boolean; last: Block | undefined } => {
  const sorted = [...fetched].sort((a, b) => a.header.height - b.header.height);
  const last = sorted[sorted.length - 1];
  const index = sorted.findIndex(isTarget);
  return index === -1
    ? { blocks: sorted, reached: false, last }
    : { blocks: sorted.slice(0, index + 1), reached: true, last };
};

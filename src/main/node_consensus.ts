import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import type { BlockProcessor } from '../engine/consensus/block_processor.js';
import { BlockReceiver } from '../engine/consensus/block_receiver.js';
import { CommitPool } from '../engine/consensus/commit_pool.js';
import type { ExecutedBlock } from '../engine/execution/executed_block.js';
import type { Peers } from '../engine/network/peers.js';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import type { TransactionPool } from '../engine/txpool/index.js';
import type { Block } from '../lib/chain/block.js';
import type { ApplicationConfig } from './config/types.js';

/** What the node does when the chain changes, whoever changed it (a generated block, a peer's, a deletion). */
export interface ChainListeners {
  committed(executed: ExecutedBlock): void;
  /** Resolves once the block's transactions are back in the pool. */
  deleted(block: Block): Promise<void>;
  /** A received block competes with the chain (Klayr's chain_forked). */
  forked(block: Block): void;
  /** A received block passed its checks: Klayr sends it on to peers before executing it. */
  verified(block: Block): void;
  /** A block of a better chain than this node's: block synchronization with the peer. */
  syncNeeded(block: Block, peerId: string): Promise<void>;
}

export interface ConsensusParts {
  config: ApplicationConfig;
  chain: Chain;
  processor: BlockProcessor;
  bls: BlsVerifier;
  signatures: SignatureVerifier;
  /** Resolved lazily: the network starts after the consensus parts exist. */
  peers: () => Peers | undefined;
  syncing: () => boolean;
  listeners: ChainListeners;
  logger: Logger;
}

/** The commit pool (gossiped through the peers) and the receiver of peers' blocks. */
export const createConsensus = ({
  config,
  chain,
  processor,
  bls,
  signatures,
  peers,
  syncing,
  listeners,
  logger,
}: ConsensusParts): { commitPool: CommitPool; receiver: BlockReceiver } => {
  const commitPool = new CommitPool({
    chain,
    chainID: Buffer.from(config.genesis.chainID, 'hex'),
    minCertifyHeight: config.genesis.minimumCertifyHeight ?? 1,
    bls,
    send: (event, data) => peers()?.send(event, data),
    logger,
  });
  const receiver = new BlockReceiver({
    chain,
    processor,
    verifiers: { bls, signatures },
    peers: { applyPenalty: (peerId, penalty) => peers()?.applyPenalty(peerId, penalty) },
    logger,
    syncing,
    onBlockVerified: (block) => listeners.verified(block),
    onBlockCommitted: (executed) => listeners.committed(executed),
    onForked: (block) => listeners.forked(block),
    onBlockDeleted: (block) => void listeners.deleted(block),
    onSyncNeeded: (block, peerId) => listeners.syncNeeded(block, peerId),
  });
  return { commitPool, receiver };
};

/** A committed block's transactions leave the pool; a deleted block's return to it where still valid. */
export const syncPoolWithChain = (pool: TransactionPool) => ({
  /** By the IDs the execution computed: a block's transactions are not encoded and hashed again. */
  committed: (transactionIDs: readonly Buffer[]): void => {
    for (const id of transactionIDs) pool.remove(id);
  },
  deleted: (block: Block): Promise<unknown> => Promise.all(block.transactions.map((tx) => pool.add(tx))),
});

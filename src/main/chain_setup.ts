import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Logger } from 'pino';
import { BFTModule } from '../engine/bft/index.js';
import { BlockStore } from '../engine/chain/block_store.js';
import { Chain } from '../engine/chain/chain.js';
import { EventStore } from '../engine/chain/event_store.js';
import { TempBlockStore } from '../engine/chain/temp_block_store.js';
import { AggregateCommitVerifier } from '../engine/consensus/aggregate_commit.js';
import { BlockProcessor } from '../engine/consensus/block_processor.js';
import { BlockExecutor } from '../engine/execution/block_executor.js';
import { processGenesisBlock } from '../engine/genesis.js';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import type { EventRootComputer } from '../engine/pools/event_root_computer.js';
import { prefetchProofsOfPossession } from '../engine/pools/pop_prefetch.js';
import { StateDB } from '../engine/state/state_db.js';
import type { Module } from '../engine/state_machine/module.js';
import { StateMachine } from '../engine/state_machine/state_machine.js';
import { TransactionVerifier } from '../engine/txpool/transaction_verifier.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID, decodeBlock } from '../lib/chain/block.js';
import { eventEncodings } from '../lib/chain/events.js';
import { rememberPopVerifications } from '../lib/crypto/bls.js';
import type { KestrelDatabases } from '../storage/database.js';
import type { ApplicationConfig } from './config/types.js';
import { applicationModules } from './modules.js';
import { isPinnedGenesisBlock, splitCheckedProofs } from './network/checked_genesis.js';

export const readGenesisBlock = (config: ApplicationConfig): Block => {
  const { fromFile, blob } = config.genesis.block;
  if (blob !== undefined) return decodeBlock(Buffer.from(blob, 'hex'));
  if (fromFile === undefined) throw new Error('config.genesis.block needs fromFile or blob');
  const bytes = readFileSync(fromFile);
  return decodeBlock(fromFile.endsWith('.gz') ? gunzipSync(bytes) : bytes);
};

/**
 * Before the first start on a data path: the genesis validators' proofs of possession checked by
 * the `bls` pool `bls()` gives (the node's, on all cores; openChain then finds the results), instead
 * of one by one on the main thread while processing genesis. An embedded preset's genesis block,
 * whose proofs are known valid (network/checked_genesis.ts), needs no pool: `bls` is not called; nor
 * does another block whose proofs are all the devnet's validators' (a local devnet's own genesis block).
 */
export const prefetchGenesisChecks = async (
  config: ApplicationConfig,
  genesis: Block,
  dbs: KestrelDatabases,
  bls: () => BlsVerifier,
): Promise<void> => {
  if (new BlockStore(dbs).idAtHeight(genesis.header.height) !== undefined) return;
  const proofs = applicationModules(config).flatMap((m) => m.genesisProofsOfPossession?.(genesis.assets) ?? []);
  if (isPinnedGenesisBlock(genesis)) {
    rememberPopVerifications(proofs.map((p) => ({ ...p, valid: true })));
    return;
  }
  const { checked, unchecked } = splitCheckedProofs(proofs);
  rememberPopVerifications(checked.map((p) => ({ ...p, valid: true })));
  if (unchecked.length > 0) await prefetchProofsOfPossession(unchecked, bls());
};

/**
 * From this many state entries, a pinned genesis block's state tree is built after its commit, in a thread
 * of its own while the node goes on starting (mainnet's 153,000 entries: about a second and a half of CPU
 * with the nodes' writes); a smaller state's tree costs less than starting that thread.
 */
export const DEFERRED_GENESIS_TREE_MIN_ENTRIES = 20_000;

/**
 * openChain's deferTreeFrom for a first start on `genesis`: only a pinned preset's genesis block
 * (network/checked_genesis.ts), whose header the tests prove to be what its assets give, has its state
 * committed before its tree; any other genesis block is refused before anything is written when its
 * stateRoot is not its state's. Undefined when the data path already holds a chain.
 */
export const genesisTreeDeferral = (genesis: Block, dbs: KestrelDatabases): number | undefined =>
  new BlockStore(dbs).idAtHeight(genesis.header.height) === undefined && isPinnedGenesisBlock(genesis)
    ? DEFERRED_GENESIS_TREE_MIN_ENTRIES
    : undefined;

export interface OpenedChain {
  /** The tip, the finalized height, commits and deletions. */
  chain: Chain;
  /** Executes blocks on overlays (the generator's and received ones). */
  executor: BlockExecutor;
  /** Received blocks: verified, executed, committed. */
  processor: BlockProcessor;
  aggregateCommits: AggregateCommitVerifier;
  /** Single transactions against the tip, for the pool and the endpoints. */
  transactionVerifier: TransactionVerifier;
  state: StateDB;
  blocks: BlockStore;
  /** The blocks a chain switch deleted, until it ends (restored on start when better). */
  tempBlocks: TempBlockStore;
  events: EventStore;
  genesis: Block;
  modules: Module[];
}

/**
 * The chain over opened databases: on an empty data path the genesis block is processed and
 * committed (application state, BFT genesis state and the block in one transaction); otherwise
 * the stored genesis block must be the config's.
 */
export interface OpenChainOptions {
  logger?: Logger;
  now?: () => number;
  /** The config's genesis block when the caller has already read it. */
  genesis?: Block;
  /**
   * A genesis state of at least this many entries is committed before its tree, left pending for
   * buildPendingStateTree (GenesisOptions.deferTreeFrom); undefined: the tree is built and committed with it.
   * Only for a genesis block whose header is known to match its state (a pinned preset: deferGenesisTreeFrom).
   */
  deferTreeFrom?: number;
  /** Where the event roots of received and generated blocks are computed (BlockExecutorOptions.eventRoots). */
  eventRoots?: EventRootComputer;
}

export const openChain = (
  config: ApplicationConfig,
  dbs: KestrelDatabases,
  { logger, now, genesis = readGenesisBlock(config), deferTreeFrom, eventRoots }: OpenChainOptions = {},
): OpenedChain => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const state = new StateDB(dbs);
  const blocks = new BlockStore(dbs);
  const events = new EventStore(dbs);
  const genesisID = blockHeaderID(genesis.header);
  const modules = applicationModules(config);
  const bft = new BFTModule({ batchSize: config.genesis.bftBatchSize, blockTime: config.genesis.blockTime });
  const machine = new StateMachine(modules);
  const minimumCertifyHeight = config.genesis.minimumCertifyHeight ?? 1;
  const chain = new Chain({
    dbs,
    stateDB: state,
    blocks,
    events,
    bft,
    minimumCertifyHeight,
    keepEventsForHeights: config.system.keepEventsForHeights,
    inclusionProofs: {
      keys: config.system.inclusionProofKeys.map((k) => Buffer.from(k, 'hex')),
      keepForHeights: config.system.keepInclusionProofsForHeights,
    },
  });
  const executor = new BlockExecutor({
    chain,
    stateDB: state,
    machine,
    bft,
    chainID,
    ...(eventRoots !== undefined ? { eventRoots } : {}),
  });
  const aggregateCommits = new AggregateCommitVerifier({ bft: bft.method, blocks, chainID, minimumCertifyHeight });
  const processor = new BlockProcessor({
    chain,
    executor,
    aggregateCommits,
    chainID,
    maxTransactionsSize: config.genesis.maxTransactionsSize,
    ...(now !== undefined ? { now } : {}),
  });
  const transactionVerifier = new TransactionVerifier({ chain, stateDB: state, machine, chainID });
  const storedGenesis = blocks.idAtHeight(genesis.header.height);
  if (storedGenesis === undefined) {
    logger?.info({ id: genesisID.toString('hex') }, 'Processing the genesis block');
    const processed = processGenesisBlock(genesis, chainID, modules, state, {
      keepTreeNodes: true,
      ...(deferTreeFrom !== undefined ? { deferTreeFrom } : {}),
    });
    const engine = chain.engineView();
    bft.initGenesisState(engine, genesis.header);
    const { precommitThreshold, certificateThreshold, validators } = processed.nextValidators;
    bft.method.setBFTParameters(engine, precommitThreshold, certificateThreshold, validators);
    chain.commitGenesis({
      block: genesis,
      transactionIDs: [],
      events: processed.events,
      encodedEvents: eventEncodings(processed.events),
      prepared: state.prepareOnEmpty(processed.changes, processed.tree),
      engine,
      nextValidators: processed.nextValidators,
    });
    if ('deferred' in processed.tree)
      logger?.info(
        { stateRoot: processed.stateRoot.toString('hex'), entries: processed.changes.length },
        "Genesis block committed; its state tree is built next, and checked against the header's stateRoot",
      );
    else logger?.info({ stateRoot: processed.stateRoot.toString('hex') }, 'Genesis block committed');
  } else if (!storedGenesis.equals(genesisID)) {
    throw new Error(
      `The data path holds a chain with genesis block ${storedGenesis.toString('hex')}, but the config's genesis block is ${genesisID.toString('hex')}`,
    );
  }
  return {
    chain,
    executor,
    processor,
    aggregateCommits,
    transactionVerifier,
    state,
    blocks,
    tempBlocks: new TempBlockStore(dbs),
    events,
    genesis,
    modules,
  };
};

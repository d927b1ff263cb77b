import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import type { BlockReceiver } from '../engine/consensus/block_receiver.js';
import type { CommitPool } from '../engine/consensus/commit_pool.js';
import { generatorEndpoints } from '../engine/endpoint/generator.js';
import { txpoolEndpoints } from '../engine/endpoint/txpool.js';
import type { Generator } from '../engine/generator/generator.js';
import { initLegacyBrackets, LegacyChainHandler } from '../engine/legacy/legacy_chain_handler.js';
import { LegacyStore } from '../engine/legacy/legacy_store.js';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import type { Synchronizer } from '../engine/sync/index.js';
import { createSynchronizer, SyncProgress } from '../engine/sync/index.js';
import type { TransactionPool } from '../engine/txpool/index.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID } from '../lib/chain/block.js';
import { PENALTY_BAN } from '../lib/chain/p2p_penalties.js';
import { transactionToJSON } from '../lib/transaction/index.js';
import { RPCMetrics } from '../rpc/metrics.js';
import { EndpointRegistry } from '../rpc/registry.js';
import { RPCServer } from '../rpc/server.js';
import type { KestrelDatabases } from '../storage/database.js';
import { closeDatabases, openDatabases } from '../storage/database.js';
import { startStateTreeThread } from '../workers/state_tree_builder.js';
import { watchBackupHeight } from './backup_height.js';
import { blockHeaderEvent, publishBlock } from './block_events.js';
import { watchChainMetrics, watchSyncMetrics } from './chain_metrics.js';
import { genesisTreeDeferral, openChain, prefetchGenesisChecks, readGenesisBlock } from './chain_setup.js';
import type { ApplicationConfig } from './config/types.js';
import { registerChainEndpoints } from './endpoints.js';
import { createGenerator } from './generation.js';
import { writeControllerPid } from './lock/controller_pid.js';
import { DataPathLock } from './lock/data_path_lock.js';
import { logSha256Backend } from './log_sha256.js';
import type { ChainListeners } from './node_consensus.js';
import { createConsensus, syncPoolWithChain } from './node_consensus.js';
import { logMissingNodeFlags } from './node_flags.js';
import type { NodePools } from './node_pools.js';
import { closePools, createBlsPool, createNodePools, eventRootPool, watchPools } from './node_pools.js';
import { assertPortsFree } from './node_ports.js';
import { createTransactionPool } from './node_transaction_pool.js';
import { PeerNetwork } from './peer_network.js';
import { buildPendingTree } from './pending_tree.js';
import type { NodePlugins } from './plugins.js';
import { startPlugins } from './plugins_start.js';
import { frontThreadStarter, rpcFrontThread } from './rpc_front/front_thread.js';
import { KESTREL_VERSION } from './version.js';

/** klayr-framework's limit on postSingleCommitMessages per peer in 10 s. */
const SINGLE_COMMITS_RATE_LIMIT = 10;

/**
 * A Kestrel node: storage, genesis (processed and committed once, checked against the stored
 * one on restart), the chain with block generation for the validators whose plain keys the
 * config names, and the RPC front.
 */
export class KestrelNode {
  readonly registry = new EndpointRegistry();
  #dbs?: KestrelDatabases;
  #rpc?: RPCServer;
  #chain?: Chain;
  #generator?: Generator;
  #pool?: TransactionPool;
  #pools: Partial<NodePools> = {};
  #lock?: DataPathLock;
  #removeControllerPid?: () => void;
  #stopped?: Promise<void>;
  #plugins?: NodePlugins;
  #peers?: PeerNetwork;
  #receiver?: BlockReceiver;
  #commitPool?: CommitPool;
  #synchronizer?: Synchronizer;
  #legacyChain?: LegacyChainHandler;
  /** The committed state's tree built, when it was pending (a first start on a large pinned genesis block). */
  #stateTree?: Promise<void>;

  constructor(
    readonly config: ApplicationConfig,
    private readonly logger: Logger,
    /** The data path's lock when the caller took it already (the start command, before it writes under the data path). */
    private readonly lock?: DataPathLock,
  ) {}

  get rpc(): RPCServer | undefined {
    return this.#rpc;
  }

  get chain(): Chain | undefined {
    return this.#chain;
  }

  /** Whether block synchronization with a peer runs now. */
  syncing(): boolean {
    return this.#synchronizer?.isActive ?? false;
  }

  async start(): Promise<void> {
    const { config, logger } = this;
    const chainID = Buffer.from(config.genesis.chainID, 'hex');
    // one node per data path and per port, checked before LMDB opens and before the genesis block's seconds of work
    this.#lock = this.lock ?? DataPathLock.acquire(config.system.dataPath);
    await assertPortsFree(config).catch((e: unknown) => {
      this.#lock?.release();
      throw e;
    });
    this.#removeControllerPid = writeControllerPid(config.system.dataPath);
    const dbs = openDatabases(config.system.dataPath);
    this.#dbs = dbs;
    logSha256Backend(logger);
    logMissingNodeFlags(logger);
    const configGenesis = readGenesisBlock(config);
    // the bls pool: the genesis validators' proofs of possession (all cores) when a first start needs them checked, then
    // aggregate commits; otherwise its threads start after the chain is open (on two cores their start-up slowed genesis)
    let blsPool: BlsVerifier | undefined;
    const blsOnce = (): BlsVerifier => {
      blsPool ??= createBlsPool();
      this.#pools = { ...this.#pools, bls: blsPool };
      return blsPool;
    };
    await prefetchGenesisChecks(config, configGenesis, dbs, blsOnce);
    const deferTreeFrom = genesisTreeDeferral(configGenesis, dbs);
    // the thread that builds a deferred genesis tree loads its code while the genesis block is processed
    const treeThread = deferTreeFrom === undefined ? undefined : startStateTreeThread();
    const eventRoots = eventRootPool();
    if (eventRoots !== undefined) this.#pools = { ...this.#pools, eventRoots };
    let opened: ReturnType<typeof openChain>;
    try {
      opened = openChain(config, dbs, {
        logger,
        ...(eventRoots !== undefined ? { eventRoots } : {}),
        genesis: configGenesis,
        ...(deferTreeFrom === undefined ? {} : { deferTreeFrom }),
      });
    } catch (e) {
      await treeThread?.close();
      throw e;
    }
    const stateTree = buildPendingTree(opened.state, treeThread, config.system.dataPath, logger);
    this.#stateTree = stateTree;
    const { chain, executor, aggregateCommits, transactionVerifier } = opened;
    const bls = blsOnce();
    this.#chain = chain;
    watchBackupHeight({ config, chain, dbs, logger });
    const last = chain.lastBlock();
    logger.info({ height: last.header.height, id: blockHeaderID(last.header).toString('hex') }, 'Chain loaded');
    const pools = createNodePools(bls, eventRoots, chainID);
    this.#pools = pools;
    const metrics = new RPCMetrics();
    const unconfirmed = () => this.#pool?.size ?? 0;
    watchChainMetrics(metrics, chain, unconfirmed);
    watchPools(metrics, pools);
    const legacy = new LegacyStore(dbs.legacy);
    const brackets = config.legacy?.brackets ?? [];
    initLegacyBrackets(legacy, brackets);
    registerChainEndpoints(this.registry, {
      ...opened,
      config,
      legacy,
      offchain: dbs.generator,
      // a state proof waits for the tree it reads
      prover: {
        ...pools.prover,
        prove: async (request) => {
          await stateTree;
          return pools.prover.prove(request);
        },
      },
      onions: pools.onions,
      metrics,
      unconfirmed,
      syncing: () => this.syncing(),
    });
    this.#plugins = await startPlugins(config, chain, this.registry, logger, metrics, () => this.syncing());
    const pool = createTransactionPool(config, transactionVerifier, logger);
    this.#pool = pool;
    pool.events.on('added', ({ transaction }) =>
      this.#rpc?.publish('txpool_newTransaction', { transaction: transactionToJSON(transaction.transaction) }),
    );
    pool.start();
    this.registry.registerNamespace('txpool', txpoolEndpoints(transactionVerifier, pool, pools.signatures));
    const rpc = new RPCServer({
      rpc: config.rpc,
      dataPath: config.system.dataPath,
      registry: this.registry,
      logger,
      metrics,
      version: KESTREL_VERSION,
      ...(rpcFrontThread()
        ? {
            startHttpWs: frontThreadStarter({
              config,
              dbs,
              metrics,
              allowedMethods: config.rpc.allowedMethods ?? [],
              version: KESTREL_VERSION,
              logger,
            }),
          }
        : {}),
    });
    this.#rpc = rpc;

    const consensus = createConsensus({
      config,
      chain,
      processor: opened.processor,
      bls,
      signatures: pools.signatures,
      peers: () => this.#peers?.network,
      syncing: () => this.syncing(),
      listeners: this.#chainListeners(),
      logger,
    });
    this.#commitPool = consensus.commitPool;
    consensus.commitPool.start(config.genesis.blockTime);
    this.#receiver = consensus.receiver;
    const peers = await PeerNetwork.create({
      config,
      chain,
      blocks: opened.blocks,
      pool,
      transactionVerifier,
      signatures: pools.signatures,
      meta: dbs.meta,
      blockSink: {
        syncing: () => this.syncing(),
        receive: async (block, peerId) => {
          rpc.publish('network_newBlock', blockHeaderEvent(block));
          this.#plugins?.blockReceived(block);
          await consensus.receiver.receive(block, peerId);
        },
      },
      legacy,
      logger,
      publish: (event, data) => rpc.publish(event, data),
    });
    this.#peers = peers;
    const legacyChain = new LegacyChainHandler({
      brackets,
      store: legacy,
      peers: peers.network,
      logger,
      onSynced: (ids) => peers.legacySynced(ids),
    });
    this.#legacyChain = legacyChain;
    const listeners = this.#chainListeners();
    const syncProgress = new SyncProgress(logger);
    watchSyncMetrics(metrics, syncProgress);
    this.#synchronizer = createSynchronizer({
      progress: syncProgress,
      chain,
      blocks: opened.blocks,
      tempBlocks: opened.tempBlocks,
      processor: opened.processor,
      verifiers: { bls, signatures: pools.signatures },
      peers: peers.network,
      logger,
      onBlockCommitted: (executed) => listeners.committed(executed),
      onBlockDeleted: (block) => void listeners.deleted(block),
    });
    peers.registerEndpoints(this.registry);
    peers.network.registerEvent('postSingleCommitMessages', (data, peerId) => {
      peers.network.rateLimiter.count('postSingleCommitMessages', peerId, SINGLE_COMMITS_RATE_LIMIT);
      if (data === undefined) {
        peers.network.applyPenalty(peerId, PENALTY_BAN);
        return;
      }
      consensus.commitPool
        .handleSingleCommitsPacket(data, peerId, peers.network)
        .catch((err: unknown) => logger.debug({ err, peerId }, 'Single commits from a peer refused'));
    });

    const generator = createGenerator({
      config,
      chain,
      executor,
      aggregateCommits,
      db: dbs.generator,
      pool,
      bls,
      signatures: pools.signatures,
      logger,
      commitPool: consensus.commitPool,
      syncing: () => this.syncing(),
      onBlock: (executed) => {
        peers.sendBlock(executed.block);
        listeners.committed(executed);
      },
    });
    this.#generator = generator;
    this.registry.registerNamespace(
      'generator',
      generatorEndpoints({
        chain,
        generator,
        db: dbs.generator,
        blockTime: config.genesis.blockTime,
        genesisHeight: opened.genesis.header.height,
        logger,
      }),
    );
    // every namespace is registered before the RPC server answers, and every handler before peers connect
    await rpc.start();
    // a pending state tree is built meanwhile (in a thread): the RPC answers from the committed state, and what
    // reads or extends the tree (a chain switch's restore, blocks from peers or of its own) starts once it is built
    await stateTree;
    if (this.#stopped !== undefined) return;
    // before any block from a peer or of its own: a chain switch cut short by a crash or a stop is undone first
    await this.#synchronizer.init();
    await peers.start();
    if (config.legacy?.sync === true) legacyChain.start();
    // Klayr ticks every second; a faster network (a shorter blockTime in tests) needs more ticks per slot not to skip slots
    generator.start(Math.min(1000, (config.genesis.blockTime * 1000) / 4));
  }

  /** What the node does on each change of the chain, whichever part made it. */
  #chainListeners(): ChainListeners {
    const publish = (name: string, data: unknown): void => this.#rpc?.publish(name, data);
    return {
      committed: (executed) => {
        publishBlock(publish, executed);
        this.#plugins?.blockCommitted(executed);
        if (this.#pool !== undefined) syncPoolWithChain(this.#pool).committed(executed.transactionIDs);
        this.#peers?.tipChanged();
      },
      deleted: async (block) => {
        publish('chain_deleteBlock', blockHeaderEvent(block));
        this.#plugins?.blockDeleted(block);
        this.#peers?.tipChanged();
        if (this.#pool !== undefined) await syncPoolWithChain(this.#pool).deleted(block);
      },
      forked: (block) => publish('chain_forked', blockHeaderEvent(block)),
      verified: (block) => this.#peers?.sendBlock(block),
      syncNeeded: async (block, peerId) => {
        await this.#synchronizer?.run(block, peerId);
      },
    };
  }

  /**
   * Deletes the tip, as Klayr Core does before switching to a better chain: its transactions go
   * back to the pool and `chain_deleteBlock` is published. Blocks at or below the finalized
   * height cannot be deleted.
   */
  async deleteLastBlock(): Promise<Block> {
    const chain = this.#chain;
    if (chain === undefined || this.#pool === undefined) throw new Error('The node is not started');
    const block = chain.deleteLastBlock();
    await this.#chainListeners().deleted(block);
    return block;
  }

  /** Stops everything once; a second call waits for the first (closing LMDB twice crashes the process). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    const { config, logger } = this;
    const stopped = this.#running();
    this.#generator?.stop();
    // a synchronization in progress ends between two blocks, then the receiver that awaits it is free
    await this.#synchronizer?.stop();
    await this.#receiver?.stop();
    await this.#legacyChain?.stop();
    this.#commitPool?.stop();
    await this.#peers?.stop();
    this.#pool?.stop();
    await Promise.all([this.#plugins?.stop(), closePools(this.#pools)]);
    await this.#rpc?.stop();
    const height = this.#chain?.lastBlock().header.height;
    // the tree's thread writes into the environment: it ends before LMDB closes
    await this.#stateTree?.catch(() => undefined);
    if (this.#dbs !== undefined) await closeDatabases(this.#dbs);
    this.#removeControllerPid?.();
    if (this.#lock !== undefined) stopped.push('data path lock released');
    this.#lock?.release();
    logger.info(
      { dataPath: config.system.dataPath, stopped, ...(height !== undefined ? { height } : {}) },
      `Node stopped${height !== undefined ? ` at height ${height}` : ''}: ${stopped.join(', ') || 'nothing was running'}`,
    );
  }

  /** What this node had started, in the order it stops, for the last log line. */
  #running(): string[] {
    const running: string[] = [];
    if (this.#generator !== undefined) running.push('block generation');
    if (this.#peers !== undefined) running.push('P2P network');
    if (this.#pool !== undefined) running.push('transaction pool');
    if (this.#plugins !== undefined) running.push('plugins');
    const pools = Object.entries(this.#pools)
      .filter(([, pool]) => pool !== undefined)
      .map(([name]) => name);
    if (pools.length > 0) running.push(`worker pools (${pools.join(', ')})`);
    if (this.#rpc !== undefined) running.push(`RPC (${this.config.rpc.modes.join(', ')})`);
    if (this.#dbs !== undefined) running.push('database');
    return running;
  }
}

import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import { generatorEndpoints } from '../engine/endpoint/generator.js';
import { txpoolEndpoints } from '../engine/endpoint/txpool.js';
import type { Generator } from '../engine/generator/generator.js';
import type { TransactionPool } from '../engine/txpool/index.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID, blockToJSON } from '../lib/chain/block.js';
import { transactionToJSON } from '../lib/transaction/index.js';
import { assertPortFree } from '../rpc/listen_guard.js';
import { RPCMetrics } from '../rpc/metrics.js';
import { EndpointRegistry } from '../rpc/registry.js';
import { RPCServer } from '../rpc/server.js';
import type { KestrelDatabases } from '../storage/database.js';
import { openDatabases } from '../storage/database.js';
import { watchBackupHeight } from './backup_height.js';
import { publishBlock } from './block_events.js';
import { watchChainMetrics } from './chain_metrics.js';
import { openChain, prefetchGenesisChecks, readGenesisBlock } from './chain_setup.js';
import type { ApplicationConfig } from './config/types.js';
import { registerChainEndpoints } from './endpoints.js';
import { createGenerator } from './generation.js';
import { DataPathLock } from './lock/data_path_lock.js';
import type { NodePools } from './node_pools.js';
import { closePools, createBlsPool, createNodePools, watchPools } from './node_pools.js';
import { createTransactionPool } from './node_transaction_pool.js';
import type { NodePlugins } from './plugins.js';
import { startPlugins } from './plugins.js';
import { KESTREL_VERSION } from './version.js';

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
  #stopped?: Promise<void>;
  #plugins?: NodePlugins;

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

  async start(): Promise<void> {
    const { config, logger } = this;
    const chainID = Buffer.from(config.genesis.chainID, 'hex');
    // one node per data path and per port, checked before LMDB opens and before the genesis block's seconds of work
    this.#lock = this.lock ?? DataPathLock.acquire(config.system.dataPath);
    if (config.rpc.modes.includes('http') || config.rpc.modes.includes('ws')) {
      await assertPortFree(config.rpc.host, config.rpc.port).catch((e: unknown) => {
        this.#lock?.release();
        throw e;
      });
    }
    const dbs = openDatabases(config.system.dataPath);
    this.#dbs = dbs;
    const configGenesis = readGenesisBlock(config);
    const bls = createBlsPool();
    this.#pools = { bls };
    await prefetchGenesisChecks(config, configGenesis, dbs, bls);
    const opened = openChain(config, dbs, { logger, genesis: configGenesis });
    const { chain, executor, aggregateCommits, transactionVerifier } = opened;
    this.#chain = chain;
    watchBackupHeight({ config, chain, dbs, logger });
    const last = chain.lastBlock();
    logger.info({ height: last.header.height, id: blockHeaderID(last.header).toString('hex') }, 'Chain loaded');
    const pools = createNodePools(bls, chainID);
    this.#pools = pools;
    const metrics = new RPCMetrics();
    const unconfirmed = () => this.#pool?.size ?? 0;
    watchChainMetrics(metrics, chain, unconfirmed);
    watchPools(metrics, pools);
    registerChainEndpoints(this.registry, {
      ...opened,
      config,
      offchain: dbs.generator,
      prover: pools.prover,
      onions: pools.onions,
      metrics,
      unconfirmed,
    });
    this.#plugins = await startPlugins(config, chain, this.registry, logger, metrics);
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
    });
    this.#rpc = rpc;
    await rpc.start();

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
      onBlock: (executed) => {
        publishBlock((name, data) => rpc.publish(name, data), executed);
        this.#plugins?.blockCommitted(executed);
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
      }),
    );
    // Klayr ticks every second; a faster network (a shorter blockTime in tests) needs more ticks per slot not to skip slots
    generator.start(Math.min(1000, (config.genesis.blockTime * 1000) / 4));
  }

  /**
   * Deletes the tip, as Klayr Core does before switching to a better chain: its transactions go
   * back to the pool and `chain_deleteBlock` is published. Blocks at or below the finalized
   * height cannot be deleted.
   */
  async deleteLastBlock(): Promise<Block> {
    const chain = this.#chain;
    const pool = this.#pool;
    if (chain === undefined || pool === undefined) throw new Error('The node is not started');
    const block = chain.deleteLastBlock();
    this.#rpc?.publish('chain_deleteBlock', { blockHeader: blockToJSON(block).header });
    this.#plugins?.blockDeleted(block);
    await Promise.all(block.transactions.map((tx) => pool.add(tx)));
    return block;
  }

  /** Stops everything once; a second call waits for the first (closing LMDB twice crashes the process). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#generator?.stop();
    this.#pool?.stop();
    await Promise.all([this.#plugins?.stop(), closePools(this.#pools)]);
    await this.#rpc?.stop();
    await this.#dbs?.root.close();
    this.#lock?.release();
  }
}

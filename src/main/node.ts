import type { Logger } from 'pino';
import { blockHeaderID, blockToJSON, type Block } from '../lib/chain/block.js';
import { generatorEndpoints } from '../engine/endpoint/generator.js';
import { txpoolEndpoints } from '../engine/endpoint/txpool.js';
import type { Chain } from '../engine/chain/chain.js';
import { Generator } from '../engine/generator/generator.js';
import { poolOptionsFromConfig, TransactionPool } from '../engine/txpool/index.js';
import { poolStatusOf } from '../engine/txpool/ingest.js';
import { transactionToJSON } from '../lib/transaction/index.js';
import { createPooledStateProver } from '../workers/state_prover.js';
import type { StateProver } from '../engine/pools/state_prover.js';
import { createPooledOnionGenerator } from '../workers/onion_pool.js';
import type { OnionGenerator } from '../engine/pools/onion_generator.js';
import { createPooledSignatureVerifier } from '../workers/signature_verifier.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import { createPooledBlsVerifier } from '../workers/bls_verifier.js';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import { availableParallelism } from 'node:os';
import { openDatabases, type KestrelDatabases } from '../storage/database.js';
import { RPCMetrics } from '../rpc/metrics.js';
import { EndpointRegistry } from '../rpc/registry.js';
import { RPCServer } from '../rpc/server.js';
import { assertPortFree } from '../rpc/listen_guard.js';
import { DataPathLock } from './lock/data_path_lock.js';
import { RepeatedLog } from '../lib/log/repeated_log.js';
import type { ApplicationConfig } from './config/types.js';
import { openChain, prefetchGenesisChecks, readGenesisBlock } from './chain_setup.js';
import { KESTREL_VERSION } from './version.js';
import { publishBlock } from './block_events.js';
import { watchChainMetrics } from './chain_metrics.js';
import { registerChainEndpoints } from './endpoints.js';
import { createGenerator } from './generation.js';
import { watchBackupHeight } from './backup_height.js';
import { startPlugins, type NodePlugins } from './plugins.js';

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
  #prover?: StateProver;
  #signatures?: SignatureVerifier;
  #onions?: OnionGenerator;
  #bls?: BlsVerifier;
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
    this.#dbs = openDatabases(config.system.dataPath);
    const configGenesis = readGenesisBlock(config);
    // the bls pool: the genesis validators' proofs of possession (all cores) when a first start needs them checked, then
    // aggregate commits; otherwise its threads start after the chain is open (on two cores their start-up slowed genesis)
    const bls = () => (this.#bls ??= createPooledBlsVerifier(availableParallelism()));
    await prefetchGenesisChecks(config, configGenesis, this.#dbs, bls);
    const { chain, executor, aggregateCommits, transactionVerifier, state, blocks, events, genesis, modules } =
      openChain(config, this.#dbs, { logger, genesis: configGenesis });
    const blsPool = bls();
    this.#chain = chain;
    watchBackupHeight({ config, chain, dbs: this.#dbs, logger });
    const last = blocks.last()!;
    logger.info({ height: last.header.height, id: blockHeaderID(last.header).toString('hex') }, 'Chain loaded');
    const metrics = new RPCMetrics();
    const unconfirmed = () => this.#pool?.size ?? 0;
    watchChainMetrics(metrics, chain, unconfirmed);
    this.#prover = createPooledStateProver(1);
    this.#onions = createPooledOnionGenerator(1);
    registerChainEndpoints(this.registry, {
      config,
      chain,
      state,
      blocks,
      events,
      genesis,
      modules,
      offchain: this.#dbs.generator,
      prover: this.#prover,
      onions: this.#onions,
      metrics,
      unconfirmed,
    });
    this.#plugins = await startPlugins(config, chain, this.registry, logger, metrics);
    const poolJobErrors = new RepeatedLog(logger, { level: 'warn' });
    const pool = (this.#pool = new TransactionPool({
      ...poolOptionsFromConfig(config.transactionPool, config.genesis.maxTransactionsSize),
      verifyTransaction: (candidate) => {
        const { status, error } = transactionVerifier.verify(candidate);
        return { status: poolStatusOf(status), ...(error !== undefined ? { message: error.message } : {}) };
      },
      onJobError: (error) => poolJobErrors.report(error, 'Transaction pool job failed'),
    }));
    pool.events.on('added', ({ transaction }) =>
      this.#rpc?.publish('txpool_newTransaction', { transaction: transactionToJSON(transaction.transaction) }),
    );
    pool.start();
    this.#signatures = createPooledSignatureVerifier(chainID);
    this.registry.registerNamespace('txpool', txpoolEndpoints(transactionVerifier, pool, this.#signatures));
    for (const [name, stats] of Object.entries({
      verify: this.#signatures,
      bls: blsPool,
      onion: this.#onions,
      proofs: this.#prover,
    }))
      metrics.watchPool(name, () => stats.stats());
    this.#rpc = new RPCServer({
      rpc: config.rpc,
      dataPath: config.system.dataPath,
      registry: this.registry,
      logger,
      metrics,
      version: KESTREL_VERSION,
    });
    await this.#rpc.start();

    this.#generator = createGenerator({
      config,
      chain,
      executor,
      aggregateCommits,
      db: this.#dbs.generator,
      pool,
      bls: blsPool,
      signatures: this.#signatures,
      logger,
      onBlock: (executed) => (
        publishBlock((name, data) => this.#rpc?.publish(name, data), executed), this.#plugins?.blockCommitted(executed)
      ),
    });
    this.registry.registerNamespace(
      'generator',
      generatorEndpoints({
        chain,
        generator: this.#generator,
        db: this.#dbs.generator,
        blockTime: config.genesis.blockTime,
        genesisHeight: genesis.header.height,
      }),
    );
    // Klayr ticks every second; a faster network (a shorter blockTime in tests) needs more ticks per slot not to skip slots
    this.#generator.start(Math.min(1000, (config.genesis.blockTime * 1000) / 4));
  }

  /**
   * Deletes the tip, as Klayr Core does before switching to a better chain: its transactions go
   * back to the pool and `chain_deleteBlock` is published. Blocks at or below the finalized
   * height cannot be deleted.
   */
  async deleteLastBlock(): Promise<Block> {
    if (this.#chain === undefined || this.#pool === undefined) throw new Error('The node is not started');
    const block = this.#chain.deleteLastBlock();
    this.#rpc?.publish('chain_deleteBlock', { blockHeader: blockToJSON(block).header }),
      this.#plugins?.blockDeleted(block);
    await Promise.all(block.transactions.map((tx) => this.#pool!.add(tx)));
    return block;
  }

  get chain(): Chain | undefined {
    return this.#chain;
  }

  /** Stops everything once; a second call waits for the first (closing LMDB twice crashes the process). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#generator?.stop();
    this.#pool?.stop();
    await Promise.all([
      this.#plugins?.stop(),
      this.#prover?.close(),
      this.#signatures?.close(),
      this.#onions?.close(),
      this.#bls?.close(),
    ]);
    await this.#rpc?.stop();
    await this.#dbs?.root.close();
    this.#lock?.release();
  }
}

import type { Logger } from 'pino';
import { blockHeaderID, blockToJSON } from '../lib/chain/block.js';
import { addressToKlayr32 } from '../lib/crypto/address.js';
import { ChainProcessor } from '../engine/chain/processor.js';
import type { ExecutedBlock } from '../engine/chain/processor.js';
import type { Block } from '../lib/chain/block.js';
import { Generator } from '../engine/generator/generator.js';
import { CommitPool } from '../engine/consensus/commit_pool.js';
import { encryptedGeneratorKeys, plainGeneratorKeys, readKeysFile } from '../engine/generator/keys.js';
import { GeneratorKeyStore } from '../engine/generator/key_store.js';
import { generatorEndpoints } from '../engine/generator/endpoint.js';
import { poolOptionsFromConfig, TransactionPool } from '../engine/txpool/index.js';
import { txpoolEndpoints } from '../engine/txpool/endpoint.js';
import { poolStatusOf } from '../engine/txpool/ingest.js';
import { highFeeFirst } from '../engine/txpool/selection.js';
import { transactionID, transactionToJSON } from '../lib/transaction/index.js';
import { chainEndpoints } from '../engine/chain/endpoint.js';
import { chainBFTEndpoints, consensusEndpoints } from '../engine/chain/consensus_endpoint.js';
import { stateEndpoints } from '../engine/chain/state_endpoint.js';
import { createPooledStateProver } from '../workers/state_prover.js';
import type { StateProver } from '../workers/state_prover.js';
import { moduleMetadata } from './metadata.js';
import { legacyEndpoints } from '../modules/legacy/endpoint.js';
import { hashOnionEndpoints } from '../modules/random/onion_endpoint.js';
import { HashOnionStores } from '../modules/random/offchain.js';
import { createPooledOnionGenerator } from '../workers/onion_pool.js';
import type { OnionGenerator } from '../workers/onion_pool.js';
import { createPooledSignatureVerifier } from '../workers/signature_verifier.js';
import type { SignatureVerifier } from '../workers/signature_verifier.js';
import { getAuthAccount } from '../modules/auth/module.js';
import { BlockState } from '../engine/state/state_db.js';
import { SubStore } from '../engine/state/substore.js';
import { tokenEndpoints } from '../modules/token/endpoint.js';
import { validatorsEndpoints } from '../modules/validators/endpoint.js';
import { authEndpoints } from '../modules/auth/endpoint.js';
import { feeConfig, feeEndpoints } from '../modules/fee/endpoint.js';
import { mainchainInteroperabilityEndpoints } from '../modules/interoperability/endpoint.js';
import { rewardConfig } from '../modules/dynamic_reward/config.js';
import { dynamicRewardEndpoints } from '../modules/dynamic_reward/endpoint.js';
import { posConfig } from '../modules/pos/config.js';
import { posEndpoints } from '../modules/pos/endpoint.js';
import { randomEndpoints } from '../modules/random/endpoint.js';
import { openDatabases } from '../engine/storage/database.js';
import type { KestrelDatabases } from '../engine/storage/database.js';
import { systemEndpoints } from '../engine/system/endpoint.js';
import { RPCMetrics } from '../rpc/metrics.js';
import { EndpointRegistry } from '../rpc/registry.js';
import { RPCServer } from '../rpc/server.js';
import { assertPortFree } from '../rpc/listen_guard.js';
import { DataPathLock } from './lock/data_path_lock.js';
import { RepeatedLog } from '../lib/log/repeated_log.js';
import type { ApplicationConfig } from './config/types.js';
import { openChain, prefetchGenesisChecks, readGenesisBlock } from './chain_setup.js';
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
  #chain?: ChainProcessor;
  #generator?: Generator;
  #pool?: TransactionPool;
  #prover?: StateProver;
  #signatures?: SignatureVerifier;
  #onions?: OnionGenerator;
  #lock?: DataPathLock;

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
    await prefetchGenesisChecks(configGenesis, this.#dbs);
    const { chain, state, blocks, events, genesis, modules } = openChain(config, this.#dbs, { logger, genesis: configGenesis });
    this.#chain = chain;
    const last = blocks.last()!;
    logger.info({ height: last.header.height, id: blockHeaderID(last.header).toString('hex') }, 'Chain loaded');

    const metrics = new RPCMetrics();
    metrics.watchValue('kestrel_chain_height', 'Height of the last block', () => chain.lastBlock().header.height);
    metrics.watchValue('kestrel_chain_finalized_height', 'Finalized height (BFT maxHeightPrecommitted)', () => chain.finalizedHeight());
    metrics.watchValue('kestrel_chain_max_height_prevoted', 'BFT maxHeightPrevoted', () => chain.bft.getBFTHeights(chain.engineView()).maxHeightPrevoted);
    metrics.watchValue('kestrel_chain_max_height_certified', 'BFT maxHeightCertified', () => chain.bft.getBFTHeights(chain.engineView()).maxHeightCertified);
    metrics.watchValue('kestrel_txpool_transactions', 'Transactions in the pool', () => this.#pool?.size ?? 0);
    this.registry.registerNamespace(
      'system',
      systemEndpoints({
        version: KESTREL_VERSION,
        chainID: config.genesis.chainID,
        genesis: config.genesis as unknown as Record<string, unknown>,
        network: config.network,
        chainStatus: () => {
          const tip = chain.lastBlock();
          return {
            lastBlockID: blockHeaderID(tip.header).toString('hex'),
            height: tip.header.height,
            finalizedHeight: chain.finalizedHeight(),
            syncing: false,
            unconfirmedTransactions: this.#pool?.size ?? 0,
            genesisHeight: genesis.header.height,
          };
        },
        modules: () => moduleMetadata(modules),
        ...(config.system.enableMetrics === false ? {} : { metrics }),
      }),
    );
    this.registry.registerNamespace('chain', { ...chainEndpoints(blocks, events), ...chainBFTEndpoints(chain) });
    this.registry.registerNamespace('consensus', consensusEndpoints(chain));
    this.#prover = createPooledStateProver(1);
    this.registry.registerNamespace('state', stateEndpoints(chain, this.#prover, config.system.dataPath));
    // module endpoints read a fresh view of committed state on every call
    const view = () => {
      const committed = new BlockState(state);
      return { store: (p: Buffer, sp: Buffer) => new SubStore(committed, p, sp) };
    };
    this.registry.registerNamespace('auth', authEndpoints(view, chainID));
    this.registry.registerNamespace('fee', feeEndpoints(feeConfig(chainID, config.modules.fee)));
    this.registry.registerNamespace('validators', validatorsEndpoints(view));
    this.registry.registerNamespace('interoperability', mainchainInteroperabilityEndpoints(view));
    const pos = posConfig(chainID, config.modules.pos);
    this.registry.registerNamespace('pos', posEndpoints(view, pos, () => chain.lastBlock().header));
    this.#onions = createPooledOnionGenerator(1);
    this.registry.registerNamespace('random', { ...randomEndpoints(view), ...hashOnionEndpoints(new HashOnionStores(this.#dbs.generator), this.#onions) });
    this.registry.registerNamespace(
      'dynamicReward',
      dynamicRewardEndpoints(view, rewardConfig(chainID, config.modules.dynamicReward), { blockTime: config.genesis.blockTime, roundLength: pos.roundLength, height: () => blocks.lastHeight() ?? 0 }),
    );
    const tokenConfig = config.modules.token ?? {};
    this.registry.registerNamespace(
      'token',
      tokenEndpoints(view, {
        chainID,
        userAccountInitializationFee: BigInt((tokenConfig.userAccountInitializationFee as string | undefined) ?? '5000000'),
        escrowAccountInitializationFee: BigInt((tokenConfig.escrowAccountInitializationFee as string | undefined) ?? '5000000'),
      }),
    );
    this.registry.registerNamespace('legacy', {
      getLegacyBrackets: { description: 'The legacy chain brackets of the config.', handler: () => config.legacy?.brackets ?? [] },
      ...legacyEndpoints(view),
    });
    const poolJobErrors = new RepeatedLog(logger, { level: 'warn' });
    const pool = (this.#pool = new TransactionPool({
      ...poolOptionsFromConfig(config.transactionPool, config.genesis.maxTransactionsSize),
      verifyTransaction: (candidate) => {
        const { status, error } = chain.verifyTransaction(candidate);
        return { status: poolStatusOf(status), ...(error !== undefined ? { message: error.message } : {}) };
      },
      onJobError: (error) => poolJobErrors.report(error, 'Transaction pool job failed'),
    }));
    pool.events.on('added', ({ transaction }) => this.#rpc?.publish('txpool_newTransaction', { transaction: transactionToJSON(transaction.transaction) }));
    pool.start();
    this.#signatures = createPooledSignatureVerifier(chainID);
    this.registry.registerNamespace('txpool', txpoolEndpoints(chain, pool, this.#signatures));
    this.#rpc = new RPCServer({ rpc: config.rpc, dataPath: config.system.dataPath, registry: this.registry, logger, metrics, version: KESTREL_VERSION });
    await this.#rpc.start();

    // as Klayr Core: the keys file's keys are stored in the generator database; plain ones generate right away
    const keyFile = config.generator?.keys.fromFile;
    const entries = keyFile === undefined ? [] : readKeysFile(keyFile);
    const keys = plainGeneratorKeys(entries, keyFile ?? 'keys file');
    const keyStore = new GeneratorKeyStore(this.#dbs.generator);
    for (const k of keys) keyStore.set(k.address, { type: 'plain', keys: { generatorKey: k.generatorKey, generatorPrivateKey: k.generatorPrivateKey, blsKey: k.blsKey, blsPrivateKey: k.blsPrivateKey } });
    for (const k of encryptedGeneratorKeys(entries)) keyStore.set(k.address, { type: 'encrypted', message: k.encrypted as never });
    this.#generator = new Generator({
      chain,
      chainID,
      db: this.#dbs.generator,
      keys,
      maxTransactionsSize: config.genesis.maxTransactionsSize,
      logger,
      candidates: () => highFeeFirst(pool.getProcessableTransactions()),
      commitPool: new CommitPool(chain.bft, chainID, config.genesis.minimumCertifyHeight ?? 1),
      onRejected: (tx, reason) => {
        logger.debug({ id: transactionID(tx).toString('hex'), reason: reason.message }, 'Transaction left out of the block and dropped from the pool');
        pool.remove(tx);
      },
      onBlock: (executed) => {
        for (const tx of executed.block.transactions) pool.remove(tx);
        this.#published(executed);
      },
    });
    logger.info({ validators: keys.length }, 'Block generation enabled for the validators with plain keys');
    this.registry.registerNamespace('generator', generatorEndpoints({ chain, generator: this.#generator, db: this.#dbs.generator, blockTime: config.genesis.blockTime, genesisHeight: genesis.header.height }));
    // Klayr ticks every second; a faster network (a shorter blockTime in tests) needs more ticks per slot not to skip slots
    this.#generator.start(Math.min(1000, (config.genesis.blockTime * 1000) / 4));
  }

  /** Klayr Core's events for a committed block. */
  #published({ block, nextValidators }: ExecutedBlock): void {
    const header = blockToJSON(block).header;
    this.#rpc?.publish('chain_newBlock', { blockHeader: header });
    this.#rpc?.publish('network_newBlock', { blockHeader: header });
    if (nextValidators !== undefined) {
      this.#rpc?.publish('chain_validatorsChanged', {
        nextValidators: nextValidators.validators.map((v) => ({ address: addressToKlayr32(v.address), blsKey: v.blsKey.toString('hex'), generatorKey: v.generatorKey.toString('hex'), bftWeight: v.bftWeight.toString() })),
        preCommitThreshold: nextValidators.precommitThreshold.toString(),
        certificateThreshold: nextValidators.certificateThreshold.toString(),
      });
    }
  }

  /**
   * Deletes the tip, as Klayr Core does before switching to a better chain: its transactions go
   * back to the pool and `chain_deleteBlock` is published. Blocks at or below the finalized
   * height cannot be deleted.
   */
  async deleteLastBlock(): Promise<Block> {
    if (this.#chain === undefined || this.#pool === undefined) throw new Error('The node is not started');
    const block = this.#chain.deleteLastBlock();
    this.#rpc?.publish('chain_deleteBlock', { blockHeader: blockToJSON(block).header });
    await Promise.all(block.transactions.map((tx) => this.#pool!.add(tx)));
    return block;
  }

  get chain(): ChainProcessor | undefined {
    return this.#chain;
  }

  async stop(): Promise<void> {
    this.#generator?.stop();
    this.#pool?.stop();
    await this.#prover?.close();
    await this.#signatures?.close();
    await this.#onions?.close();
    await this.#rpc?.stop();
    await this.#dbs?.root.close();
    this.#lock?.release();
  }
}

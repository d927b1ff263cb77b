import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { blockHeaderID, decodeBlock } from '../lib/chain/block.js';
import type { Block } from '../lib/chain/block.js';
import { BlockStore } from '../engine/chain/block_store.js';
import { chainEndpoints } from '../engine/chain/endpoint.js';
import { EventStore } from '../engine/chain/event_store.js';
import { processGenesisBlock } from '../engine/genesis.js';
import { BlockState, StateDB } from '../engine/state/state_db.js';
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
import type { ApplicationConfig } from './config/types.js';
import { applicationModules } from './modules.js';
import { KESTREL_VERSION } from './version.js';

export const readGenesisBlock = (config: ApplicationConfig): Block => {
  const { fromFile, blob } = config.genesis.block;
  if (blob !== undefined) return decodeBlock(Buffer.from(blob, 'hex'));
  if (fromFile === undefined) throw new Error('config.genesis.block needs fromFile or blob');
  return decodeBlock(readFileSync(fromFile));
};

/**
 * A Kestrel node: storage, genesis (processed and committed once, checked against the stored
 * one on restart) and the RPC front. Block processing and generation are not built yet, so the
 * node stays at its genesis block.
 */
export class KestrelNode {
  readonly registry = new EndpointRegistry();
  #dbs?: KestrelDatabases;
  #rpc?: RPCServer;
  #blocks?: BlockStore;

  constructor(
    readonly config: ApplicationConfig,
    private readonly logger: Logger,
  ) {}

  get rpc(): RPCServer | undefined {
    return this.#rpc;
  }

  async start(): Promise<void> {
    const { config, logger } = this;
    const chainID = Buffer.from(config.genesis.chainID, 'hex');
    this.#dbs = openDatabases(config.system.dataPath);
    const state = new StateDB(this.#dbs);
    const blocks = (this.#blocks = new BlockStore(this.#dbs));
    const events = new EventStore(this.#dbs);
    const genesis = readGenesisBlock(config);
    const genesisID = blockHeaderID(genesis.header);
    const storedGenesis = blocks.idAtHeight(genesis.header.height);
    if (storedGenesis === undefined) {
      logger.info({ id: genesisID.toString('hex') }, 'Processing the genesis block');
      const processed = processGenesisBlock(genesis, chainID, applicationModules(config), state);
      state.commit(state.prepare(processed.state), genesis.header.height, (dbs) => {
        blocks.save(dbs, genesis);
        events.save(dbs, genesis.header.height, processed.events);
      });
      logger.info({ stateRoot: processed.stateRoot.toString('hex') }, 'Genesis block committed');
    } else if (!storedGenesis.equals(genesisID)) {
      throw new Error(`The data path holds a chain with genesis block ${storedGenesis.toString('hex')}, but the config's genesis block is ${genesisID.toString('hex')}`);
    }
    const last = blocks.last()!;
    logger.info({ height: last.header.height, id: blockHeaderID(last.header).toString('hex') }, 'Chain loaded');

    this.registry.registerNamespace(
      'system',
      systemEndpoints({
        version: KESTREL_VERSION,
        chainID: config.genesis.chainID,
        genesis: config.genesis as unknown as Record<string, unknown>,
        network: config.network,
        chainStatus: () => {
          const tip = blocks.last()!;
          return {
            lastBlockID: blockHeaderID(tip.header).toString('hex'),
            height: tip.header.height,
            finalizedHeight: genesis.header.height,
            syncing: false,
            unconfirmedTransactions: 0,
            genesisHeight: genesis.header.height,
          };
        },
        modules: () => [],
      }),
    );
    this.registry.registerNamespace('chain', chainEndpoints(blocks, events));
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
    this.registry.registerNamespace('pos', posEndpoints(view, pos));
    this.registry.registerNamespace('random', randomEndpoints(view));
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
    });
    this.#rpc = new RPCServer({ rpc: config.rpc, dataPath: config.system.dataPath, registry: this.registry, logger, metrics: new RPCMetrics(), version: KESTREL_VERSION });
    await this.#rpc.start();
  }

  async stop(): Promise<void> {
    await this.#rpc?.stop();
    await this.#dbs?.root.close();
  }
}

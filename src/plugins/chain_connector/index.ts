import type { BlockHeader } from '../../lib/chain/block.js';
import { required } from '../../lib/required.js';
import type { CommittedBlock, Plugin, PluginContext, RemoteChainClient } from '../types.js';
import { mainchainIDOf, recordBlock } from './block_recorder.js';
import { CCUSender } from './ccu_sender.js';
import type { ChainConnectorConfig } from './config.js';
import { chainConnectorConfig } from './config.js';
import { chainConnectorEndpoints } from './endpoints.js';
import { decryptRelayerKey } from './relayer_key.js';
import { pruneStore } from './retention.js';
import { ChainConnectorStore } from './store.js';

export const CHAIN_CONNECTOR_NAME = 'chainConnector';

/**
 * The chainConnector plugin (@klayr/chain-connector-plugin 0.2.2): follows its own chain in
 * process, keeps what CCUs need in its own store, and relays CCUs to the receiving chain.
 */
export class ChainConnectorPlugin implements Plugin {
  readonly name = CHAIN_CONNECTOR_NAME;
  readonly directory = 'chain_connector';
  #context?: PluginContext;
  #config?: ChainConnectorConfig;
  #store?: ChainConnectorStore;
  #sender?: CCUSender;
  #remote?: RemoteChainClient;
  #privateKey?: Buffer;
  #receivingChainID = Buffer.alloc(0);
  #receivingIsMainchain = false;
  /** The CCU attempt in flight: one at a time; blocks that arrive meanwhile are only recorded. */
  #attempt?: Promise<void>;

  get store(): ChainConnectorStore | undefined {
    return this.#store;
  }

  get sender(): CCUSender | undefined {
    return this.#sender;
  }

  async start(context: PluginContext): Promise<void> {
    const config = chainConnectorConfig(context.config, context.chain.chainID);
    this.#context = context;
    this.#config = config;
    this.#receivingChainID = Buffer.from(config.receivingChainID, 'hex');
    // a sidechain relays to the mainchain (Klayr's _isReceivingChainMainchain)
    this.#receivingIsMainchain = !mainchainIDOf(context.chain.chainID).equals(context.chain.chainID);
    const store = ChainConnectorStore.open(context.dataPath);
    this.#store = store;
    this.#sender = new CCUSender({
      config,
      store,
      chain: context.chain,
      logger: context.logger,
      receivingChainID: this.#receivingChainID,
      receivingIsMainchain: this.#receivingIsMainchain,
      privateKey: () => this.#privateKey,
    });
    const endpoints = chainConnectorEndpoints(store, {
      enable: async (password) => {
        this.#privateKey = await decryptRelayerKey(config.encryptedPrivateKey, password);
      },
      disable: async (password) => {
        await decryptRelayerKey(config.encryptedPrivateKey, password);
        this.#privateKey = undefined;
      },
    });
    try {
      context.registerEndpoints(endpoints);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async blockCommitted(block: CommittedBlock): Promise<void> {
    const { store, context, config } = this.#started();
    recordBlock(store, context.chain, block, this.#receivingChainID, this.#receivingIsMainchain);
    pruneStore(store, block.header.height, config.registrationHeight, store.lastSentCCM()?.height);
    this.#attempt ??= this.#attemptCCU(block.header.height).finally(() => {
      this.#attempt = undefined;
    });
  }

  async blockDeleted(header: BlockHeader): Promise<void> {
    this.#started().store.deleteBlock(header);
  }

  /** Resolves when the CCU attempt in flight (if any) has finished. */
  async settled(): Promise<void> {
    await this.#attempt;
  }

  async stop(): Promise<void> {
    await this.#attempt;
    await this.#remote?.close().catch(() => undefined);
    this.#remote = undefined;
    await this.#store?.close();
    this.#store = undefined;
  }

  async #attemptCCU(height: number): Promise<void> {
    const { context } = this.#started();
    try {
      const remote = await this.#connected();
      await required(this.#sender, 'The CCU sender of the started chainConnector plugin').afterBlock(height, remote);
    } catch (error) {
      // an error without a JSON-RPC code is the connection's: reconnect on the next block
      if (typeof (error as { code?: unknown }).code !== 'number') {
        await this.#remote?.close().catch(() => undefined);
        this.#remote = undefined;
      }
      context.logger.error({ err: error, height }, 'Failed to handle new block.');
    }
  }

  async #connected(): Promise<RemoteChainClient> {
    const { context, config } = this.#started();
    this.#remote ??= await context.connect({
      ...(config.receivingChainWsURL !== undefined ? { wsURL: config.receivingChainWsURL } : {}),
      ...(config.receivingChainIPCPath !== undefined ? { ipcPath: config.receivingChainIPCPath } : {}),
    });
    return this.#remote;
  }

  #started(): { store: ChainConnectorStore; context: PluginContext; config: ChainConnectorConfig } {
    if (this.#store === undefined || this.#context === undefined || this.#config === undefined)
      throw new Error('The chainConnector plugin is not started');
    return { store: this.#store, context: this.#context, config: this.#config };
  }
}

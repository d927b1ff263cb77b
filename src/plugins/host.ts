import { join } from 'node:path';
import type { BlockHeader } from '../lib/chain/block.js';
import type { Endpoints } from '../lib/endpoint/definition.js';
import { required } from '../lib/required.js';
import type {
  CommittedBlock,
  OwnChainView,
  Plugin,
  PluginLogger,
  RemoteChainClient,
  RemoteChainTarget,
} from './types.js';

export interface PluginHostOptions {
  /** The node's data path; each plugin stores under `<dataPath>/plugins/<directory>`. */
  dataPath: string;
  chain: OwnChainView;
  logger: PluginLogger & { child(bindings: object): PluginLogger };
  registerEndpoints(namespace: string, endpoints: Endpoints): void;
  connect(target: RemoteChainTarget): Promise<RemoteChainClient>;
  /** plugins.<name> of the application config. */
  configOf(name: string): unknown;
}

/**
 * Runs the node's plugins: starts each with its context, hands each committed or deleted block
 * (and each block header received from peers) to every plugin in order (one queue per plugin, so
 * a slow plugin never holds the chain up and never sees blocks out of order), and stops them.
 */
export class PluginHost {
  readonly #plugins: Plugin[] = [];
  readonly #queues = new Map<Plugin, Promise<void>>();

  constructor(private readonly options: PluginHostOptions) {}

  get plugins(): readonly Plugin[] {
    return this.#plugins;
  }

  async start(plugin: Plugin): Promise<void> {
    const { options } = this;
    const logger = options.logger.child({ plugin: plugin.name });
    await plugin.start({
      config: options.configOf(plugin.name),
      dataPath: join(options.dataPath, 'plugins', plugin.directory),
      logger,
      chain: options.chain,
      registerEndpoints: (endpoints) => options.registerEndpoints(plugin.name, endpoints),
      connect: (target) => options.connect(target),
    });
    this.#plugins.push(plugin);
    this.#queues.set(plugin, Promise.resolve());
  }

  blockCommitted(block: CommittedBlock): void {
    this.#each((plugin) => plugin.blockCommitted(block), 'Plugin failed to handle a new block', block.header.height);
  }

  blockDeleted(header: BlockHeader): void {
    this.#each((plugin) => plugin.blockDeleted(header), 'Plugin failed to handle a deleted block', header.height);
  }

  blockReceived(header: BlockHeader): void {
    this.#each(
      (plugin) => plugin.blockReceived?.(header) ?? Promise.resolve(),
      'Plugin failed to handle a received block',
      header.height,
    );
  }

  /** Resolves once every plugin has handled every block handed to it so far. */
  async idle(): Promise<void> {
    await Promise.all(this.#queues.values());
  }

  async stop(): Promise<void> {
    await this.idle();
    for (const plugin of this.#plugins.splice(0).reverse()) await plugin.stop();
    this.#queues.clear();
  }

  #each(task: (plugin: Plugin) => Promise<void>, message: string, height: number): void {
    for (const plugin of this.#plugins) {
      const queued = required(this.#queues.get(plugin), `The task queue of plugin ${plugin.name}`)
        .then(() => task(plugin))
        .catch((error: unknown) => this.options.logger.error({ plugin: plugin.name, height, err: error }, message));
      this.#queues.set(plugin, queued);
    }
  }
}

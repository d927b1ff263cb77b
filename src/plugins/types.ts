import type { CCUBuilder } from '../engine/pools/ccu_builder.js';
import type { AggregateCommit, BlockAsset, BlockHeader } from '../lib/chain/block.js';
import type { BlockEvent } from '../lib/chain/events.js';
import type { Endpoints } from '../lib/endpoint/definition.js';
import type { ValidatorsData } from '../lib/interop/ccu_validators_update.js';

export type { AggregateCommit };

/** A block the node committed, as plugins receive it. */
export interface CommittedBlock {
  readonly header: BlockHeader;
  readonly events: readonly BlockEvent[];
  readonly assets: readonly BlockAsset[];
}

export interface PluginLogger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/** What a plugin may read of the chain its node runs, in process (no RPC round trips). */
export interface OwnChainView {
  readonly chainID: Buffer;
  /** The node's data path (whose committed LMDB snapshots the CCU builder reads). */
  readonly dataPath: string;
  syncing(): boolean;
  bftHeights(): { maxHeightPrevoted: number; maxHeightPrecommitted: number; maxHeightCertified: number };
  /** The active validators (BFT weight above 0) and thresholds in force at `height`. */
  activeValidatorsAt(height: number): ValidatorsData;
  /** Calls one of the node's own endpoints in process; rejects with the endpoint's error. */
  invoke(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** CCUs built from committed snapshots (the node's `ccu` pool). */
  readonly ccuBuilder: CCUBuilder;
}

/** A JSON-RPC client of another node (WS or IPC). */
export interface RemoteChainClient {
  invoke(method: string, params?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

export interface RemoteChainTarget {
  wsURL?: string;
  ipcPath?: string;
}

export interface PluginContext {
  /** The plugin's own settings (plugins.<name>), validated by the plugin. */
  readonly config: unknown;
  /** `<dataPath>/plugins/<directory>`, the plugin's own storage. */
  readonly dataPath: string;
  readonly logger: PluginLogger;
  readonly chain: OwnChainView;
  /** Registers the plugin's endpoints as `<namespace>_<method>` (reachable where rpc.allowedMethods lists the namespace or "*"). */
  registerEndpoints(endpoints: Endpoints): void;
  connect(target: RemoteChainTarget): Promise<RemoteChainClient>;
}

/**
 * A plugin: started once with its context, told of each committed and deleted block in order (and,
 * where it asks, of each block header received from peers, applied or not), stopped once.
 */
export interface Plugin {
  /** Config key under `plugins` and endpoint namespace. */
  readonly name: string;
  /** Directory name under `<dataPath>/plugins`. */
  readonly directory: string;
  start(context: PluginContext): Promise<void>;
  blockCommitted(block: CommittedBlock): Promise<void>;
  blockDeleted(header: BlockHeader): Promise<void>;
  /** A block a peer sent (Klayr's network_newBlock): decoded, before any check, whatever becomes of it (forks included). */
  blockReceived?(header: BlockHeader): Promise<void>;
  stop(): Promise<void>;
}

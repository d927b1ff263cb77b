import type { BlockAsset, BlockHeader } from '../../lib/chain/block.js';
import type { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import type { EventQueue } from './event_queue.js';

export interface NextValidators {
  precommitThreshold: bigint;
  certificateThreshold: bigint;
  validators: { address: Buffer; bftWeight: bigint; generatorKey: Buffer; blsKey: Buffer }[];
}

/** What a module sees while the genesis block is processed. */
export interface GenesisContext {
  readonly header: BlockHeader;
  readonly chainID: Buffer;
  readonly state: StateReadWriter;
  readonly events: EventQueue;
  /** The asset the genesis block holds for a module, if any. */
  asset(module: string): Buffer | undefined;
  store(storePrefix: Buffer, substorePrefix: Buffer): SubStore;
  setNextValidators(next: NextValidators): void;
}

/** Read access to module substores (endpoints use a view of committed state). */
export type StoreAccess = Pick<GenesisContext, 'store'>;

/** The part of the module lifecycle the genesis block runs. */
export interface GenesisModule {
  readonly name: string;
  initGenesisState?(ctx: GenesisContext): void;
  finalizeGenesisState?(ctx: GenesisContext): void;
}

export const assetsOf = (assets: readonly BlockAsset[]) => (module: string): Buffer | undefined => assets.find((a) => a.module === module)?.data;

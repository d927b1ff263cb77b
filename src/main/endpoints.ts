import type { BlockStore } from '../engine/chain/block_store.js';
import type { Chain } from '../engine/chain/chain.js';
import type { EventStore } from '../engine/chain/event_store.js';
import { chainBFTEndpoints, chainEndpoints } from '../engine/endpoint/chain.js';
import { consensusEndpoints } from '../engine/endpoint/consensus.js';
import { legacyEngineEndpoints } from '../engine/endpoint/legacy.js';
import { stateEndpoints } from '../engine/endpoint/state.js';
import { systemEndpoints } from '../engine/endpoint/system.js';
import type { LegacyStore } from '../engine/legacy/legacy_store.js';
import type { OnionGenerator } from '../engine/pools/onion_generator.js';
import type { StateProver } from '../engine/pools/state_prover.js';
import { CommittedView } from '../engine/state/committed_view.js';
import type { StateBase, StateDB } from '../engine/state/state_db.js';
import { SubStore } from '../engine/state/substore.js';
import { moduleEndpoints, modulesMetadata } from '../engine/state_machine/metadata.js';
import type { EndpointServices, Module, StoreAccess } from '../engine/state_machine/module.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID } from '../lib/chain/block.js';
import type { RPCMetrics } from '../rpc/metrics.js';
import type { EndpointRegistry } from '../rpc/registry.js';
import type { BinaryDB } from '../storage/database.js';
import { appEndpoints } from './app_endpoints.js';
import type { ApplicationConfig } from './config/types.js';
import { KESTREL_VERSION } from './version.js';

export interface ChainParts {
  config: ApplicationConfig;
  chain: Chain;
  state: StateDB;
  blocks: BlockStore;
  events: EventStore;
  genesis: Block;
  modules: readonly Module[];
  /** The generator database: the modules' off-chain store. */
  offchain: BinaryDB;
  prover: StateProver;
  onions: OnionGenerator;
  metrics: RPCMetrics;
  /** The legacy chain's blocks and the brackets' progress (the legacy namespace). */
  legacy: LegacyStore;
  /** Transactions in the pool (0 before it starts). */
  unconfirmed: () => number;
  /** Whether block synchronization runs (system_getNodeInfo's syncing); never when left out. */
  syncing?: () => boolean;
}

/** A fresh view of committed state for each endpoint call (EndpointServices.state). */
export const committedStateAccess =
  (state: StateBase): (() => StoreAccess) =>
  () => {
    const committed = new CommittedView(state);
    return { store: (p: Buffer, sp: Buffer) => new SubStore(committed, p, sp) };
  };

/** What module endpoints are given: a fresh view of committed state on every call, the tip, the off-chain store. */
const endpointServices = ({ config, chain, state, offchain, onions }: ChainParts): EndpointServices => ({
  chainID: Buffer.from(config.genesis.chainID, 'hex'),
  state: committedStateAccess(state),
  lastHeader: () => chain.lastBlock().header,
  offchain,
  onions,
});

/** The engine's namespaces over the chain (system, chain, consensus, state, legacy's brackets), then the application's own (app) and every module's. */
export const registerChainEndpoints = (registry: EndpointRegistry, parts: ChainParts): void => {
  const { config, chain, blocks, events, genesis, modules } = parts;
  registry.registerNamespace(
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
          syncing: parts.syncing?.() ?? false,
          unconfirmedTransactions: parts.unconfirmed(),
          genesisHeight: genesis.header.height,
        };
      },
      modules: () => modulesMetadata(modules),
      ...(config.system.enableMetrics === false ? {} : { metrics: parts.metrics }),
    }),
  );
  registry.registerNamespace('chain', { ...chainEndpoints(blocks, events), ...chainBFTEndpoints(chain) });
  registry.registerNamespace('consensus', consensusEndpoints(chain));
  registry.registerNamespace('state', stateEndpoints(chain, parts.prover, config.system.dataPath));
  registry.registerNamespace('legacy', legacyEngineEndpoints(config.legacy?.brackets ?? [], parts.legacy));
  registry.registerNamespace('app', appEndpoints(registry), 'application');
  const services = endpointServices(parts);
  for (const module of modules)
    registry.registerNamespace(module.name, moduleEndpoints(module, services), 'application');
};

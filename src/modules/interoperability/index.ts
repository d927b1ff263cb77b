import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { EndpointServices, GenesisContext, Module } from '../../engine/state_machine/module.js';
import { INTEROPERABILITY_ENDPOINTS, mainchainInteroperabilityEndpoints } from './endpoint.js';
import { interoperabilityEventSchemas } from './events.js';
import { finalizeInteroperabilityGenesis, initInteroperabilityGenesis } from './genesis.js';
import { genesisInteroperabilitySchema } from './schemas.js';
import { INTEROP_STORE_DECLARATIONS, MODULE_NAME, STORE_PREFIX } from './stores.js';

export { CHAIN_NAME_MAINCHAIN, mainchainID } from './genesis.js';
export { INTEROP_STORES, MODULE_NAME, STORE_PREFIX } from './stores.js';

/**
 * The mainchain interoperability module: its stores, its genesis (own chain account, registered
 * sidechains with channels and validators, terminated accounts) and its read endpoints. Its
 * commands (sidechain registration, cross-chain updates, recovery) are a later capability.
 */
export class MainchainInteroperabilityModule implements Module {
  readonly name = MODULE_NAME;
  readonly storePrefix = STORE_PREFIX;
  readonly stores = INTEROP_STORE_DECLARATIONS;
  readonly events = Object.entries(interoperabilityEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisInteroperabilitySchema }];
  readonly endpointDeclarations = INTEROPERABILITY_ENDPOINTS;

  endpoints({ state }: EndpointServices) {
    return mainchainInteroperabilityEndpoints(state);
  }

  metadata() {
    return declaredMetadata(this);
  }

  initGenesisState(ctx: GenesisContext): void {
    initInteroperabilityGenesis(ctx);
  }

  finalizeGenesisState(ctx: GenesisContext): void {
    finalizeInteroperabilityGenesis(ctx);
  }
}

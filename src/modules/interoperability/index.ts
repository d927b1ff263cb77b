import type { GenesisContext, StateModule } from '../../engine/state_machine/module.js';
import { finalizeInteroperabilityGenesis, initInteroperabilityGenesis, MODULE_NAME } from './genesis.js';
import { interoperabilityEventSchemas } from './events.js';
import { genesisInteroperabilitySchema } from './schemas.js';

export { CHAIN_NAME_MAINCHAIN, INTEROP_STORES, MODULE_NAME, STORE_PREFIX, mainchainID } from './genesis.js';

/**
 * The mainchain interoperability module: its stores, its genesis (own chain account, registered
 * sidechains with channels and validators, terminated accounts) and its read endpoints. Its
 * commands (sidechain registration, cross-chain updates, recovery) are a later capability.
 */
export class MainchainInteroperabilityModule implements StateModule {
  readonly name = MODULE_NAME;
  readonly events = Object.entries(interoperabilityEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisInteroperabilitySchema }];

  initGenesisState(ctx: GenesisContext): void {
    initInteroperabilityGenesis(ctx);
  }

  finalizeGenesisState(ctx: GenesisContext): void {
    finalizeInteroperabilityGenesis(ctx);
  }
}

import type { GenesisModule } from '../../engine/state_machine/module.js';
import { initTokenGenesis } from './genesis.js';
import { MODULE_NAME } from './stores.js';

/** The token module (so far: its stores and genesis). */
export class TokenModule implements GenesisModule {
  readonly name = MODULE_NAME;
  initGenesisState = initTokenGenesis;
}

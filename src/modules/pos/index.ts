import type { GenesisContext, GenesisModule } from '../../engine/state_machine/module.js';
import type { PoSConfig } from './config.js';
import { finalizePoSGenesis, initPoSGenesis } from './genesis.js';
import { MODULE_NAME } from './stores.js';

/** The PoS module (so far: its stores and genesis). */
export class PoSModule implements GenesisModule {
  readonly name = MODULE_NAME;

  constructor(private readonly config: PoSConfig) {}

  initGenesisState(ctx: GenesisContext): void {
    initPoSGenesis(ctx, this.config);
  }

  finalizeGenesisState(ctx: GenesisContext): void {
    finalizePoSGenesis(ctx, this.config);
  }
}

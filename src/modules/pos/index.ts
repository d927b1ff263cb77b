import type { BlockContext, GenesisContext, StateModule } from '../../engine/state_machine/module.js';
import type { PoSConfig } from './config.js';
import { finalizePoSGenesis, initPoSGenesis } from './genesis.js';
import { posAfterTransactionsExecute } from './round_end.js';
import { MODULE_NAME } from './stores.js';

/** The PoS module: genesis, and per block the validators' productivity and the round-end election. */
export class PoSModule implements StateModule {
  readonly name = MODULE_NAME;

  constructor(
    private readonly config: PoSConfig,
    private readonly blockTime = 10,
  ) {}

  initGenesisState(ctx: GenesisContext): void {
    initPoSGenesis(ctx, this.config);
  }

  finalizeGenesisState(ctx: GenesisContext): void {
    finalizePoSGenesis(ctx, this.config);
  }

  afterTransactionsExecute(ctx: BlockContext): void {
    posAfterTransactionsExecute(ctx, this.config, this.blockTime);
  }
}

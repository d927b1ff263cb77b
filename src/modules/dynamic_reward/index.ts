import type { GenesisContext, GenesisModule } from '../../engine/state_machine/module.js';
import { endOfRoundTimestampSchema, endOfRoundTimestampStore, MODULE_NAME } from './stores.js';

/** The dynamicReward module (so far: its store and genesis). */
export class DynamicRewardModule implements GenesisModule {
  readonly name = MODULE_NAME;

  initGenesisState(ctx: GenesisContext): void {
    endOfRoundTimestampStore(ctx).setWithSchema(Buffer.alloc(0), { timestamp: ctx.header.timestamp }, endOfRoundTimestampSchema);
  }
}

import type { GenesisContext, GenesisModule } from '../../engine/state_machine/module.js';
import { EMPTY_KEY, MODULE_NAME, seedRevealSchema, validatorRevealsStore } from './stores.js';
import type { ValidatorReveal } from './stores.js';

/** The random module (so far: its store and genesis). */
export class RandomModule implements GenesisModule {
  readonly name = MODULE_NAME;

  initGenesisState(ctx: GenesisContext): void {
    validatorRevealsStore(ctx).setWithSchema<{ validatorReveals: ValidatorReveal[] }>(EMPTY_KEY, { validatorReveals: [] }, seedRevealSchema);
  }
}

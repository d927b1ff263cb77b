import type { BlockContext, GenesisContext, StateModule } from '../../engine/state_machine/module.js';
import { getValidatorReveals, isSeedValidInput, randomAssetCodec, randomAssetSchema } from './method.js';
import { EMPTY_KEY, MODULE_NAME, seedRevealSchema, validatorRevealsStore } from './stores.js';
import type { ValidatorReveal } from './stores.js';

export const MAX_LENGTH_REVEALS = 206;

/** The random module: every block's seed reveal is recorded (the last 206), marked valid when it opens the generator's previous one. */
export class RandomModule implements StateModule {
  readonly name = MODULE_NAME;
  readonly assets = [{ version: 2, data: randomAssetSchema }];

  constructor(private readonly maxLengthReveals = MAX_LENGTH_REVEALS) {}

  initGenesisState(ctx: GenesisContext): void {
    validatorRevealsStore(ctx).setWithSchema<{ validatorReveals: ValidatorReveal[] }>(EMPTY_KEY, { validatorReveals: [] }, seedRevealSchema);
  }

  verifyAssets(ctx: BlockContext): void {
    const asset = ctx.asset(MODULE_NAME);
    if (asset === undefined) throw new Error('Random module asset must exist.');
    randomAssetCodec.validate(randomAssetCodec.decode(asset));
  }

  afterTransactionsExecute(ctx: BlockContext): void {
    const asset = ctx.asset(MODULE_NAME);
    if (asset === undefined) throw new Error('Random module asset must exist.');
    const { seedReveal } = randomAssetCodec.decode(asset);
    const reveals = getValidatorReveals(ctx);
    const { generatorAddress, height } = ctx.header;
    const valid = isSeedValidInput(generatorAddress, seedReveal, reveals);
    const next = reveals.length === this.maxLengthReveals ? reveals.slice(1) : reveals;
    next.push({ seedReveal, generatorAddress, height, valid });
    validatorRevealsStore(ctx).setWithSchema(EMPTY_KEY, { validatorReveals: next }, seedRevealSchema);
  }
}

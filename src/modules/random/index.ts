import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type {
  BlockContext,
  EndpointServices,
  GenesisContext,
  InsertAssetsContext,
  Module,
} from '../../engine/state_machine/module.js';
import { RANDOM_ENDPOINTS, randomEndpoints } from './endpoint.js';
import {
  getValidatorReveals,
  isSeedValidInput,
  randomAssetCodec,
  randomAssetSchema,
  setValidatorReveals,
} from './method.js';
import { nextSeedReveal } from './next_reveal.js';
import { HashOnionStores } from './offchain.js';
import { hashOnionEndpoints } from './onion_endpoint.js';
import type { ValidatorReveal } from './stores.js';
import { EMPTY_KEY, MODULE_NAME, RANDOM_STORES, seedRevealSchema, validatorRevealsStore } from './stores.js';

export const MAX_LENGTH_REVEALS = 206;

/**
 * The random module: every block's seed reveal is recorded (the last 206), marked valid when it
 * opens the generator's previous one. A generated block reveals the next hash of its validator's
 * hash onion (off-chain, in the generator database).
 */
export class RandomModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = RANDOM_STORES;
  readonly assets = [{ version: 2, data: randomAssetSchema }];
  readonly endpointDeclarations = RANDOM_ENDPOINTS;

  constructor(private readonly maxLengthReveals = MAX_LENGTH_REVEALS) {}

  endpoints({ state, offchain, onions }: EndpointServices) {
    return { ...randomEndpoints(state), ...hashOnionEndpoints(new HashOnionStores(offchain), onions) };
  }

  metadata() {
    return declaredMetadata(this);
  }

  initGenesisState(ctx: GenesisContext): void {
    validatorRevealsStore(ctx).setWithSchema<{ validatorReveals: ValidatorReveal[] }>(
      EMPTY_KEY,
      { validatorReveals: [] },
      seedRevealSchema,
    );
  }

  /** The next hash of the validator's onion; without one the reveal is random (valid only as a first reveal). */
  insertAssets(ctx: InsertAssetsContext): void {
    const { generatorAddress: address, height } = ctx.header;
    const onions = new HashOnionStores(ctx.offchain);
    const reveal = nextSeedReveal(onions, address, height, () =>
      ctx.logger.warn(
        { address: address.toString('hex') },
        'All of the hash onion has been used already. Please update to the new hash onion.',
      ),
    );
    ctx.setAsset(MODULE_NAME, randomAssetCodec.encode({ seedReveal: reveal.hash }));
    ctx.onCommit((finalizedHeight) => onions.recordUsed(address, finalizedHeight, { count: reveal.count, height }));
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
    setValidatorReveals(ctx, next);
  }
}

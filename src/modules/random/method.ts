import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile, LastWritten } from '../../lib/codec/index.js';
import { sha256 } from '../../lib/crypto/hash.js';
import type { ValidatorReveal } from './stores.js';
import { EMPTY_KEY, SEED_LENGTH, seedRevealSchema, validatorRevealsStore } from './stores.js';

export const randomAssetSchema = {
  $id: '/modules/random/block/header/asset',
  type: 'object',
  required: ['seedReveal'],
  properties: { seedReveal: { dataType: 'bytes', fieldNumber: 1, minLength: SEED_LENGTH, maxLength: SEED_LENGTH } },
} as const satisfies Schema;
export const randomAssetCodec: CompiledSchema<{ seedReveal: Buffer }> = compile<{ seedReveal: Buffer }>(
  randomAssetSchema,
);

/** The reveals are written again by every block and read back by the next (its seed check, then its update). */
const lastReveals = new LastWritten<{ validatorReveals: ValidatorReveal[] }>(
  compile<{ validatorReveals: ValidatorReveal[] }>(seedRevealSchema),
  // field by field: an object spread costs several times as much (see the BFT votes' copy)
  ({ validatorReveals }) => ({
    validatorReveals: validatorReveals.map((reveal) => ({
      generatorAddress: reveal.generatorAddress,
      seedReveal: reveal.seedReveal,
      height: reveal.height,
      valid: reveal.valid,
    })),
  }),
);

/** The validators' reveals, the caller's own to change. */
export const getValidatorReveals = (ctx: StoreAccess): ValidatorReveal[] => {
  const bytes = validatorRevealsStore(ctx).get(EMPTY_KEY);
  return bytes === undefined ? [] : lastReveals.decode(bytes).validatorReveals;
};

/** The validators' reveals to read only: the last written are one copy shared by every such reader, never to be changed. */
export const readValidatorReveals = (ctx: StoreAccess): readonly Readonly<ValidatorReveal>[] => {
  const bytes = validatorRevealsStore(ctx).get(EMPTY_KEY);
  if (bytes === undefined) return [];
  return (lastReveals.sharedOf(bytes) ?? lastReveals.decode(bytes)).validatorReveals;
};

export const setValidatorReveals = (ctx: StoreAccess, validatorReveals: ValidatorReveal[]): void => {
  validatorRevealsStore(ctx).setOwned(EMPTY_KEY, lastReveals.encode({ validatorReveals }));
};

/**
 * A reveal is valid when it hashes to the generator's last reveal; with no earlier reveal
 * it is valid only when a previous seed is not required.
 */
export const isSeedValidInput = (
  generatorAddress: Buffer,
  seedReveal: Buffer,
  reveals: readonly Readonly<ValidatorReveal>[],
  previousSeedRequired = true,
): boolean => {
  // the generator's latest reveal (reveals are in height order)
  let last: Readonly<ValidatorReveal> | undefined;
  for (let i = reveals.length - 1; i >= 0 && last === undefined; i--) {
    const reveal = reveals[i] as Readonly<ValidatorReveal>;
    if (reveal.generatorAddress.equals(generatorAddress)) last = reveal;
  }
  if (last === undefined) return !previousSeedRequired;
  return last.seedReveal.equals(sha256(seedReveal).subarray(0, SEED_LENGTH));
};

const xor = (buffers: readonly Buffer[]): Buffer => {
  const out = Buffer.from(buffers[0]);
  for (const b of buffers.slice(1)) {
    if (b.length !== out.length) throw new Error('All input for XOR should be same size');
    for (let i = 0; i < out.length; i++) out[i] ^= b[i];
  }
  return out;
};

/** Random bytes for [height, height + numberOfSeeds): the valid reveals in that range XORed with a height-derived seed. */
export const getRandomBytes = (ctx: StoreAccess, height: number, numberOfSeeds: number): Buffer => {
  if (!Number.isInteger(height) || !Number.isInteger(numberOfSeeds))
    throw new Error('Height or number of seeds cannot be non integer.');
  if (height < 0 || numberOfSeeds < 0) throw new Error('Height or number of seeds cannot be negative.');
  const init = Buffer.alloc(4);
  init.writeUInt32BE(height + numberOfSeeds);
  const seeds = [sha256(init).subarray(0, SEED_LENGTH)];
  let inFuture = true;
  for (const reveal of readValidatorReveals(ctx)) {
    if (reveal.height >= height) {
      inFuture = false;
      if (reveal.height < height + numberOfSeeds && reveal.valid) seeds.push(reveal.seedReveal);
    }
  }
  if (inFuture) throw new Error('Height is in the future.');
  return xor(seeds);
};

/** Whether a block's seed reveal (its random asset) continues the generator's hash onion. */
export const isSeedRevealValid = (
  ctx: StoreAccess,
  generatorAddress: Buffer,
  randomAsset: Buffer | undefined,
): boolean => {
  if (randomAsset === undefined) throw new Error('Block asset is missing.');
  return isSeedValidInput(
    generatorAddress,
    randomAssetCodec.decode(randomAsset).seedReveal,
    readValidatorReveals(ctx),
    false,
  );
};

import type { SubStore } from '../../engine/state/substore.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { Schema } from '../../lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';

export const MODULE_NAME = 'random';
export const SEED_LENGTH = 16;
export const EMPTY_KEY = Buffer.alloc(0);

export const seedRevealSchema = {
  $id: '/modules/random/seedReveal',
  type: 'object',
  required: ['validatorReveals'],
  properties: {
    validatorReveals: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['generatorAddress', 'seedReveal', 'height', 'valid'],
        properties: {
          generatorAddress: { dataType: 'bytes', minLength: 20, maxLength: 20, fieldNumber: 1 },
          seedReveal: { dataType: 'bytes', minLength: SEED_LENGTH, maxLength: SEED_LENGTH, fieldNumber: 2 },
          height: { dataType: 'uint32', fieldNumber: 3 },
          valid: { dataType: 'boolean', fieldNumber: 4 },
        },
      },
    },
  },
} as const satisfies Schema;

export interface ValidatorReveal {
  generatorAddress: Buffer;
  seedReveal: Buffer;
  height: number;
  valid: boolean;
}

/** Substore 0: the recent seed reveals, under the empty key. */
export const validatorRevealsStore = (ctx: Pick<GenesisContext, 'store'>): SubStore =>
  ctx.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));

/** Substore 0 with its value schema. */
export const RANDOM_STORES = [{ index: 0, schema: seedRevealSchema }];

import type { SubStore } from '../../engine/state/substore.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { Schema } from '../../lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';

export const MODULE_NAME = 'dynamicReward';

export const endOfRoundTimestampSchema = {
  $id: '/dynamicRewards/endOfRoundTimestamp',
  type: 'object',
  properties: { timestamp: { dataType: 'uint32', fieldNumber: 1 } },
  required: ['timestamp'],
} as const satisfies Schema;

/** Substore 0: the timestamp of the last round's end, under the empty key. */
export const endOfRoundTimestampStore = (ctx: Pick<GenesisContext, 'store'>): SubStore =>
  ctx.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));

/** Substore 0 with its value schema. */
export const DYNAMIC_REWARD_STORES = [{ index: 0, schema: endOfRoundTimestampSchema }];

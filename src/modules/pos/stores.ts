import type { SubStore } from '../../engine/state/substore.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import {
  eligibleValidatorsStoreSchema,
  genesisDataStoreSchema,
  nameStoreSchema,
  previousTimestampStoreSchema,
  snapshotStoreSchema,
  stakerStoreSchema,
  validatorStoreSchema,
} from './schemas.js';

export const MODULE_NAME = 'pos';
export const EMPTY_KEY = Buffer.alloc(0);
const storePrefix = computeStorePrefix(MODULE_NAME);

/** Substores in Klayr's registration order. */
export const POS_STORES = {
  staker: 0,
  validator: 1,
  name: 2,
  snapshot: 3,
  genesisData: 4,
  previousTimestamp: 5,
  eligibleValidators: 6,
} as const;

export const posStore = (ctx: Pick<GenesisContext, 'store'>, name: keyof typeof POS_STORES): SubStore =>
  ctx.store(storePrefix, computeSubstorePrefix(POS_STORES[name]));

/** The substores with their value schemas, in Klayr's registration order. */
export const POS_STORE_DECLARATIONS = [
  { index: POS_STORES.staker, schema: stakerStoreSchema },
  { index: POS_STORES.validator, schema: validatorStoreSchema },
  { index: POS_STORES.name, schema: nameStoreSchema },
  { index: POS_STORES.snapshot, schema: snapshotStoreSchema },
  { index: POS_STORES.genesisData, schema: genesisDataStoreSchema },
  { index: POS_STORES.previousTimestamp, schema: previousTimestampStoreSchema },
  { index: POS_STORES.eligibleValidators, schema: eligibleValidatorsStoreSchema },
];

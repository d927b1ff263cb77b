import type { SubStore } from '../../engine/state/substore.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import { blsKeyDataSchema, validatorKeysSchema, validatorsParamsSchema } from './schemas.js';

export const MODULE_NAME = 'validators';
const storePrefix = computeStorePrefix(MODULE_NAME);

/** Substores in Klayr's registration order: validator keys 0, validators params 1, BLS keys 2. */
export const VALIDATORS_STORES = { validatorKeys: 0, validatorsParams: 1, blsKeys: 2 } as const;

export const validatorsStore = (ctx: Pick<GenesisContext, 'store'>, name: keyof typeof VALIDATORS_STORES): SubStore =>
  ctx.store(storePrefix, computeSubstorePrefix(VALIDATORS_STORES[name]));

/** The substores with their value schemas, in Klayr's registration order. */
export const VALIDATORS_STORE_DECLARATIONS = [
  { index: VALIDATORS_STORES.validatorKeys, schema: validatorKeysSchema },
  { index: VALIDATORS_STORES.validatorsParams, schema: validatorsParamsSchema },
  { index: VALIDATORS_STORES.blsKeys, schema: blsKeyDataSchema },
];

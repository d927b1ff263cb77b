import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { SubStore } from '../../engine/state/substore.js';

export const MODULE_NAME = 'pos';
export const EMPTY_KEY = Buffer.alloc(0);
const storePrefix = computeStorePrefix(MODULE_NAME);

/** Substores in Klayr's registration order. */
export const POS_STORES = { staker: 0, validator: 1, name: 2, snapshot: 3, genesisData: 4, previousTimestamp: 5, eligibleValidators: 6 } as const;

export const posStore = (ctx: Pick<GenesisContext, 'store'>, name: keyof typeof POS_STORES): SubStore => ctx.store(storePrefix, computeSubstorePrefix(POS_STORES[name]));

import type { StoreAccess } from '../../engine/state_machine/module.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import { authAccountSchema } from './schemas.js';

export const MODULE_NAME = 'auth';

/** Substore 0: each account's nonce and multisignature keys, by address. */
export const AUTH_STORES = [{ index: 0, schema: authAccountSchema }] as const;

export const authAccountStore = (view: StoreAccess) =>
  view.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));

import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { Schema } from '../../lib/codec/index.js';
import { sha256 } from '../../lib/crypto/hash.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';

export const MODULE_NAME = 'legacy';
/** The account holding the unclaimed legacy balances, locked by this module (sha256("legacyReserve")[0..20]). */
export const ADDRESS_LEGACY_RESERVE = sha256(Buffer.from('legacyReserve', 'utf8')).subarray(0, 20);

export const legacyAccountStoreSchema = {
  $id: '/legacy/store/genesis',
  type: 'object',
  required: ['balance'],
  properties: { balance: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

export const legacyStore = (view: StoreAccess) => view.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));

/** A legacy (Lisk 2/3) address: the first 8 bytes of sha256(publicKey), reversed. */
export const legacyAddressOf = (publicKey: Buffer): Buffer => Buffer.from(sha256(publicKey).subarray(0, 8)).reverse();

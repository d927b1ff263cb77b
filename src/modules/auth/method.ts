import type { StoreAccess, VerifyStatus } from '../../engine/state_machine/module.js';
import { VERIFY_STATUS } from '../../engine/state_machine/module.js';
import type { AuthAccount } from './schemas.js';
import { authAccountSchema } from './schemas.js';
import { authAccountStore } from './stores.js';

/** What an address without an auth entry counts as: nonce 0, no multisignature keys. */
export const DEFAULT_AUTH_ACCOUNT: Readonly<AuthAccount> = {
  nonce: 0n,
  numberOfSignatures: 0,
  mandatoryKeys: [],
  optionalKeys: [],
};

export const getAuthAccount = (view: StoreAccess, address: Buffer): AuthAccount | undefined =>
  authAccountStore(view).getWithSchema<AuthAccount>(address, authAccountSchema);

/** Klayr's nonce rule: lower fails, equal is OK, higher is pending (kept in the pool). */
export const nonceStatus = (txNonce: bigint, accountNonce: bigint): VerifyStatus =>
  txNonce < accountNonce ? VERIFY_STATUS.FAIL : txNonce > accountNonce ? VERIFY_STATUS.PENDING : VERIFY_STATUS.OK;

import type { GenesisContext } from '../../engine/state_machine/module.js';
import { userStoreSchema } from './schemas.js';
import type { UserAccount } from './schemas.js';
import { tokenStore, userKey } from './stores.js';

/** Amount `module` has locked on the account's `tokenID` balance (0 without an account). */
export const getLockedAmount = (ctx: Pick<GenesisContext, 'store'>, address: Buffer, tokenID: Buffer, module: string): bigint =>
  tokenStore(ctx, 'user')
    .getWithSchema<UserAccount>(userKey(address, tokenID), userStoreSchema)
    ?.lockedBalances.find((l) => l.module === module)?.amount ?? 0n;

import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import { verifyTransactionSignatures } from '../../lib/transaction/index.js';
import { VERIFY_STATUS } from '../../engine/state_machine/module.js';
import type { GenesisContext, StateModule, StoreAccess, TransactionContext, VerifyStatus } from '../../engine/state_machine/module.js';
import { initAuthGenesis } from './genesis.js';
import { authAccountSchema, genesisAuthStoreSchema } from './schemas.js';
import { authEventSchemas, registerMultisignatureCommand } from './register_multisignature.js';
import type { AuthAccount } from './schemas.js';

export const MODULE_NAME = 'auth';
export const DEFAULT_AUTH_ACCOUNT: Readonly<AuthAccount> = { nonce: 0n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };

export const authAccountStore = (view: StoreAccess) => view.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));
export const getAuthAccount = (view: StoreAccess, address: Buffer): AuthAccount | undefined => authAccountStore(view).getWithSchema<AuthAccount>(address, authAccountSchema);

/** Klayr's nonce rule: lower fails, equal is OK, higher is pending (kept in the pool). */
export const nonceStatus = (txNonce: bigint, accountNonce: bigint): VerifyStatus =>
  txNonce < accountNonce ? VERIFY_STATUS.FAIL : txNonce > accountNonce ? VERIFY_STATUS.PENDING : VERIFY_STATUS.OK;

/** The auth module: genesis accounts, and the transaction hooks (nonce and signatures checked, nonce incremented). */
export class AuthModule implements StateModule {
  readonly name = MODULE_NAME;
  readonly commands = [registerMultisignatureCommand()];
  readonly events = Object.entries(authEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisAuthStoreSchema }];

  initGenesisState(ctx: GenesisContext): void {
    initAuthGenesis(ctx);
  }

  verifyTransaction(ctx: TransactionContext): VerifyStatus {
    const account = getAuthAccount(ctx, ctx.senderAddress) ?? DEFAULT_AUTH_ACCOUNT;
    const status = nonceStatus(ctx.transaction.nonce, account.nonce);
    if (status === VERIFY_STATUS.FAIL) {
      throw new Error(`Transaction with id:${ctx.transactionID.toString('hex')} nonce is lower than account nonce.`);
    }
    const keys = account.numberOfSignatures === 0 ? undefined : account;
    if (ctx.checkSignatures !== undefined) ctx.checkSignatures(keys);
    else verifyTransactionSignatures(ctx.transaction, ctx.chainID, keys);
    return status;
  }

  beforeCommandExecute(ctx: TransactionContext): void {
    const account = getAuthAccount(ctx, ctx.senderAddress) ?? DEFAULT_AUTH_ACCOUNT;
    authAccountStore(ctx).setWithSchema(ctx.senderAddress, { ...account, nonce: account.nonce + 1n }, authAccountSchema);
  }
}

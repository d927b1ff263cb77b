import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type {
  EndpointServices,
  GenesisContext,
  Module,
  TransactionContext,
  VerifyStatus,
} from '../../engine/state_machine/module.js';
import { VERIFY_STATUS } from '../../engine/state_machine/module.js';
import { signingBytesOfEncoded, verifyTransactionSignatures } from '../../lib/transaction/index.js';
import { registerMultisignatureCommand } from './commands/register_multisignature.js';
import { AUTH_ENDPOINTS, authEndpoints } from './endpoint.js';
import { AUTH_EVENTS } from './events.js';
import { initAuthGenesis } from './genesis.js';
import { DEFAULT_AUTH_ACCOUNT, getAuthAccount, nonceStatus } from './method.js';
import { authAccountSchema, genesisAuthStoreSchema } from './schemas.js';
import { AUTH_STORES, authAccountStore, MODULE_NAME } from './stores.js';

/** The auth module: genesis accounts, and the transaction hooks (nonce and signatures checked, nonce incremented). */
export class AuthModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = AUTH_STORES;
  readonly commands = [registerMultisignatureCommand()];
  readonly events = AUTH_EVENTS;
  readonly assets = [{ version: 0, data: genesisAuthStoreSchema }];
  readonly endpointDeclarations = AUTH_ENDPOINTS;

  endpoints(services: EndpointServices) {
    return authEndpoints(services.state, services.chainID);
  }

  metadata() {
    return declaredMetadata(this);
  }

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
    else if (ctx.transactionBytes === undefined) verifyTransactionSignatures(ctx.transaction, ctx.chainID, keys);
    else
      verifyTransactionSignatures(
        ctx.transaction,
        ctx.chainID,
        keys,
        signingBytesOfEncoded(ctx.transaction, ctx.transactionBytes),
      );
    return status;
  }

  beforeCommandExecute(ctx: TransactionContext): void {
    const account = getAuthAccount(ctx, ctx.senderAddress) ?? DEFAULT_AUTH_ACCOUNT;
    authAccountStore(ctx).setWithSchema(
      ctx.senderAddress,
      {
        nonce: account.nonce + 1n,
        numberOfSignatures: account.numberOfSignatures,
        mandatoryKeys: account.mandatoryKeys,
        optionalKeys: account.optionalKeys,
      },
      authAccountSchema,
    );
  }
}

import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import { compile } from '../../../lib/codec/index.js';
import type { TokenMethod } from '../../token/method.js';
import { legacyEventSchemas } from '../events.js';
import { reclaimParamsSchema } from '../schemas.js';
import {
  ADDRESS_LEGACY_RESERVE,
  legacyAccountStoreSchema,
  legacyAddressOf,
  legacyStore,
  MODULE_NAME,
} from '../stores.js';

/** legacy:reclaimKLY — the owner of a migrated legacy account takes its whole balance from the legacy reserve. */
export const reclaimCommand = (token: TokenMethod, tokenIDReclaim: Buffer): Command<{ amount: bigint }> => ({
  name: 'reclaimKLY',
  schema: reclaimParamsSchema,
  verify: (ctx: CommandContext<{ amount: bigint }>) => {
    const account = legacyStore(ctx).getWithSchema<{ balance: bigint }>(
      legacyAddressOf(ctx.transaction.senderPublicKey),
      legacyAccountStoreSchema,
    );
    if (account === undefined) throw new Error('Public key does not correspond to a reclaimable account.');
    if (account.balance !== ctx.params.amount)
      throw new Error('Input amount does not equal the balance of the legacy account.');
  },
  execute: (ctx: CommandContext<{ amount: bigint }>) => {
    const legacyAddress = legacyAddressOf(ctx.transaction.senderPublicKey);
    const { amount } = ctx.params;
    legacyStore(ctx).del(legacyAddress);
    token.unlock(ctx, ADDRESS_LEGACY_RESERVE, MODULE_NAME, tokenIDReclaim, amount);
    token.transfer(ctx, ADDRESS_LEGACY_RESERVE, ctx.senderAddress, tokenIDReclaim, amount);
    const data = compile(legacyEventSchemas.accountReclaimed).encode({
      legacyAddress,
      address: ctx.senderAddress,
      amount,
    });
    ctx.events.add(MODULE_NAME, 'accountReclaimed', data, [legacyAddress, ctx.senderAddress]);
  },
});

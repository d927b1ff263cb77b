import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import type { TokenMethod } from '../method.js';
import { insufficientBalanceError } from '../method.js';

export const transferParamsSchema = {
  $id: '/klayr/transferParams',
  title: 'Transfer transaction params',
  type: 'object',
  required: ['tokenID', 'amount', 'recipientAddress', 'data'],
  properties: {
    tokenID: { dataType: 'bytes', fieldNumber: 1, minLength: 8, maxLength: 8 },
    amount: { dataType: 'uint64', fieldNumber: 2 },
    recipientAddress: { dataType: 'bytes', fieldNumber: 3, format: 'klayr32' },
    data: { dataType: 'string', fieldNumber: 4, minLength: 0, maxLength: 64 },
  },
} as const satisfies Schema;

export interface TransferParams {
  tokenID: Buffer;
  amount: bigint;
  recipientAddress: Buffer;
  data: string;
}

/** token:transfer — moves tokens to another account, creating it (and paying its initialization fee) if needed. */
export const transferCommand = (token: TokenMethod): Command<TransferParams> => ({
  name: 'transfer',
  schema: transferParamsSchema,
  verify: (ctx: CommandContext<TransferParams>) => {
    const available = token.getAvailableBalance(ctx, ctx.senderAddress, ctx.params.tokenID);
    if (available < ctx.params.amount) throw insufficientBalanceError(ctx.senderAddress, available, ctx.params.amount);
  },
  execute: (ctx: CommandContext<TransferParams>) => {
    const { tokenID, recipientAddress, amount } = ctx.params;
    token.initializeUserAccount(ctx, recipientAddress, tokenID);
    token.internalTransfer(ctx, ctx.senderAddress, recipientAddress, tokenID, amount);
  },
});

import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import type { PoSConfig } from '../config.js';
import { logPosEvent } from '../events.js';
import { getValidatorAccount, setValidatorAccount } from '../method.js';
import { posStore } from '../stores.js';

export const changeCommissionParamsSchema = {
  $id: '/pos/command/changeCommissionCommandParams',
  type: 'object',
  required: ['newCommission'],
  properties: { newCommission: { dataType: 'uint32', fieldNumber: 1, maximum: 10000 } },
} as const satisfies Schema;

/** pos:changeCommission — a validator's share of its rewards (in hundredths of a percent); increases are rate-limited. */
export const changeCommissionCommand = (config: PoSConfig): Command<{ newCommission: number }> => ({
  name: 'changeCommission',
  schema: changeCommissionParamsSchema,
  verify: (ctx: CommandContext<{ newCommission: number }>) => {
    if (!posStore(ctx, 'validator').has(ctx.senderAddress))
      throw new Error('Transaction sender has not registered as a validator.');
    const validator = getValidatorAccount(ctx, ctx.senderAddress);
    const { newCommission } = ctx.params;
    const increasedRecently =
      ctx.header.height - validator.lastCommissionIncreaseHeight < config.commissionIncreasePeriod;
    if (newCommission > validator.commission && increasedRecently) {
      throw new Error(
        `Can only increase the commission again ${config.commissionIncreasePeriod} blocks after the last commission increase.`,
      );
    }
    if (newCommission - validator.commission > config.maxCommissionIncreaseRate)
      throw new Error(`Invalid argument: Commission increase larger than ${config.maxCommissionIncreaseRate}.`);
  },
  execute: (ctx: CommandContext<{ newCommission: number }>) => {
    const validator = getValidatorAccount(ctx, ctx.senderAddress);
    const oldCommission = validator.commission;
    validator.commission = ctx.params.newCommission;
    if (validator.commission >= oldCommission) validator.lastCommissionIncreaseHeight = ctx.header.height;
    setValidatorAccount(ctx, ctx.senderAddress, validator);
    logPosEvent(
      ctx,
      'commissionChange',
      { validatorAddress: ctx.senderAddress, oldCommission, newCommission: ctx.params.newCommission },
      [ctx.senderAddress],
    );
  },
});

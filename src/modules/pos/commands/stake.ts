import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import type { TokenMethod } from '../../token/method.js';
import type { PoSConfig } from '../config.js';
import { logPosEvent, STAKE_RESULT } from '../events.js';
import { assignStakeRewards, getValidatorWeight, setValidatorAccount, updateEligibleValidator } from '../method.js';
import type { PendingUnlock, Stake, ValidatorAccount } from '../schemas.js';
import { stakerStoreSchema, validatorStoreSchema } from '../schemas.js';
import { MODULE_NAME, posStore } from '../stores.js';

export const stakeParamsSchema = {
  $id: '/pos/command/stakeValidatorParams',
  type: 'object',
  required: ['stakes'],
  properties: {
    stakes: {
      type: 'array',
      fieldNumber: 1,
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        required: ['validatorAddress', 'amount'],
        properties: {
          validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'klayr32' },
          amount: { dataType: 'sint64', fieldNumber: 2 },
        },
      },
    },
  },
} as const satisfies Schema;

interface StakeParams {
  stakes: { validatorAddress: Buffer; amount: bigint }[];
}

/** Pending unlocks: by validator address, then newest unstake height first, then larger amount first (Klayr's sortUnlocking). */
export const compareUnlocks = (a: PendingUnlock, b: PendingUnlock): number =>
  Buffer.compare(a.validatorAddress, b.validatorAddress) ||
  b.unstakeHeight - a.unstakeHeight ||
  (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0);

/**
 * pos:stake — upstakes lock tokens, downstakes become pending unlocks; a stake whose validator
 * shared rewards since it last changed collects them first. Downstakes run before upstakes.
 */
export const stakeCommand = (config: PoSConfig, token: TokenMethod): Command<StakeParams> => ({
  name: 'stake',
  schema: stakeParamsSchema,
  verify: (ctx: CommandContext<StakeParams>) => {
    const seen = new Set<string>();
    let up = 0;
    let down = 0;
    for (const { validatorAddress, amount } of ctx.params.stakes) {
      if (seen.has(validatorAddress.toString('hex'))) throw new Error('Validator address must be unique.');
      seen.add(validatorAddress.toString('hex'));
      if (amount === 0n) throw new Error('Amount cannot be 0.');
      if (amount % config.baseStakeAmount !== 0n)
        throw new Error(`Amount should be multiple of ${config.baseStakeAmount}.`);
      if (amount > 0n) up += 1;
      else down += 1;
    }
    if (up > config.maxNumberSentStakes)
      throw new Error(`Upstake can only be casted up to ${config.maxNumberSentStakes}.`);
    if (down > config.maxNumberSentStakes)
      throw new Error(`Downstake can only be casted up to ${config.maxNumberSentStakes}.`);
  },
  execute: (ctx: CommandContext<StakeParams>) => {
    const sender = ctx.senderAddress;
    const stakes = [...ctx.params.stakes].sort((a, b) => (a.amount > b.amount ? 1 : a.amount < b.amount ? -1 : 0));
    const stakers = posStore(ctx, 'staker');
    const validators = posStore(ctx, 'validator');
    for (const { validatorAddress, amount } of stakes) {
      const fail = (result: number, message: string): never => {
        logPosEvent(
          ctx,
          'validatorStaked',
          { senderAddress: sender, validatorAddress, amount, result },
          [sender, validatorAddress],
          true,
        );
        throw new Error(message);
      };
      const staker = stakers.getWithSchema<{ stakes: Stake[]; pendingUnlocks: PendingUnlock[] }>(
        sender,
        stakerStoreSchema,
      ) ?? { stakes: [], pendingUnlocks: [] };
      const validator = validators.getWithSchema<ValidatorAccount>(validatorAddress, validatorStoreSchema);
      if (validator === undefined)
        return fail(
          STAKE_RESULT.INVALID_VALIDATOR,
          'Invalid stake: no registered validator with the specified address',
        );
      const index = staker.stakes.findIndex((s) => s.validatorAddress.equals(validatorAddress));
      if (amount < 0n) {
        if (index < 0)
          fail(
            STAKE_RESULT.INVALID_UNSTAKE,
            'Invalid unstake: Cannot cast downstake to validator who is not upstaked.',
          );
        const existing = staker.stakes[index];
        if (existing.amount + amount < 0n)
          fail(
            STAKE_RESULT.INVALID_UNSTAKE,
            'Invalid unstake: The unstake amount exceeds the staked amount for this validator.',
          );
        assignStakeRewards(ctx, token, sender, existing, validator);
        existing.amount += amount;
        existing.sharingCoefficients = validator.sharingCoefficients;
        if (existing.amount === 0n)
          staker.stakes = staker.stakes.filter((s) => !s.validatorAddress.equals(validatorAddress));
        staker.pendingUnlocks.push({ validatorAddress, amount: -amount, unstakeHeight: ctx.header.height });
        staker.pendingUnlocks.sort(compareUnlocks);
        if (staker.pendingUnlocks.length > config.maxNumberPendingUnlocks)
          fail(
            STAKE_RESULT.TOO_MANY_PENDING_UNLOCKS,
            `Pending unlocks cannot exceed ${config.maxNumberPendingUnlocks}.`,
          );
      } else {
        token.lock(ctx, sender, MODULE_NAME, config.posTokenID, amount);
        if (index > -1) {
          const existing = staker.stakes[index];
          assignStakeRewards(ctx, token, sender, existing, validator);
          existing.amount += amount;
          existing.sharingCoefficients = validator.sharingCoefficients;
        } else {
          staker.stakes.push({ validatorAddress, amount, sharingCoefficients: validator.sharingCoefficients });
        }
        staker.stakes.sort((a, b) => Buffer.compare(a.validatorAddress, b.validatorAddress));
        if (staker.stakes.length > config.maxNumberSentStakes)
          fail(STAKE_RESULT.TOO_MANY_SENT_STAKES, `Sender can only stake upto ${config.maxNumberSentStakes}.`);
      }
      const previousWeight = getValidatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
      if (sender.equals(validatorAddress)) validator.selfStake += amount;
      validator.totalStake += amount;
      updateEligibleValidator(ctx, config, validatorAddress, previousWeight, validator);
      stakers.setWithSchema(sender, staker, stakerStoreSchema);
      setValidatorAccount(ctx, validatorAddress, validator);
      logPosEvent(
        ctx,
        'validatorStaked',
        { senderAddress: sender, validatorAddress, amount, result: STAKE_RESULT.SUCCESS },
        [sender, validatorAddress],
      );
    }
  },
});

import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import type { TokenMethod } from '../../token/method.js';
import { setValidatorGeneratorKey } from '../../validators/method.js';
import type { PoSConfig } from '../config.js';
import { assignStakeRewards, getGenesisData, getValidatorAccount } from '../method.js';
import type { PendingUnlock, Stake } from '../schemas.js';
import { stakerStoreSchema } from '../schemas.js';
import { MODULE_NAME, posStore } from '../stores.js';

/** Commands without params carry Klayr's empty schema. */
export const emptyParamsSchema = { $id: '/klayr/empty', type: 'object', properties: {} } as const satisfies Schema;

interface StakerData {
  stakes: Stake[];
  pendingUnlocks: PendingUnlock[];
}

const getStaker = (ctx: CommandContext<unknown>): StakerData => {
  const staker = posStore(ctx, 'staker').getWithSchema<StakerData>(ctx.senderAddress, stakerStoreSchema);
  if (staker === undefined) throw new Error(`Staker ${ctx.senderAddress.toString('hex')} does not exist.`);
  return staker;
};

/**
 * pos:unlock — unlocks every pending unlock that has waited its locking period, is not held by a
 * misbehaviour report, and whose unstake height is covered by a certificate.
 */
export const unlockCommand = (config: PoSConfig, token: TokenMethod): Command<Record<string, never>> => ({
  name: 'unlock',
  schema: emptyParamsSchema,
  execute: (ctx) => {
    const sender = ctx.senderAddress;
    const { height, aggregateCommit } = ctx.header;
    const staker = getStaker(ctx);
    const genesisHeight = getGenesisData(ctx).height;
    const lastHeightOfRound = (h: number) =>
      Math.ceil((h - genesisHeight) / config.roundLength) * config.roundLength + genesisHeight;
    const kept: PendingUnlock[] = [];
    for (const unlock of staker.pendingUnlocks) {
      const self = unlock.validatorAddress.equals(sender);
      const waitTime = self ? config.lockingPeriodSelfStaking : config.lockingPeriodStaking;
      const punishTime = self ? config.punishmentWindowSelfStaking : config.punishmentWindowStaking;
      const lastReport = getValidatorAccount(ctx, unlock.validatorAddress).reportMisbehaviorHeights.at(-1);
      const waited = height - unlock.unstakeHeight >= waitTime;
      const punished =
        lastReport !== undefined && height - lastReport < punishTime && lastReport < unlock.unstakeHeight + waitTime;
      const certified = lastHeightOfRound(unlock.unstakeHeight + 2 * config.roundLength) <= aggregateCommit.height;
      if (waited && !punished && certified) token.unlock(ctx, sender, MODULE_NAME, config.posTokenID, unlock.amount);
      else kept.push(unlock);
    }
    if (kept.length === staker.pendingUnlocks.length)
      throw new Error('No eligible staker data was found for unlocking');
    posStore(ctx, 'staker').setWithSchema(sender, { ...staker, pendingUnlocks: kept }, stakerStoreSchema);
  },
});

/** pos:claimRewards — collects the shared rewards of every stake. */
export const claimRewardsCommand = (token: TokenMethod): Command<Record<string, never>> => ({
  name: 'claimRewards',
  schema: emptyParamsSchema,
  execute: (ctx) => {
    const staker = getStaker(ctx);
    for (const stake of staker.stakes) {
      const validator = getValidatorAccount(ctx, stake.validatorAddress);
      assignStakeRewards(ctx, token, ctx.senderAddress, stake, validator);
      stake.sharingCoefficients = validator.sharingCoefficients;
    }
    posStore(ctx, 'staker').setWithSchema(ctx.senderAddress, staker, stakerStoreSchema);
  },
});

export const updateGeneratorKeyParamsSchema = {
  $id: '/pos/command/updateGeneratorKeyParams',
  type: 'object',
  required: ['generatorKey'],
  properties: { generatorKey: { dataType: 'bytes', fieldNumber: 1, minLength: 32, maxLength: 32 } },
} as const satisfies Schema;

/** pos:updateGeneratorKey — a validator replaces its block-signing key. */
export const updateGeneratorKeyCommand = (): Command<{ generatorKey: Buffer }> => ({
  name: 'updateGeneratorKey',
  schema: updateGeneratorKeyParamsSchema,
  verify: (ctx) => {
    if (!posStore(ctx, 'validator').has(ctx.senderAddress))
      throw new Error('Validator substore must have an entry for the store key address');
  },
  execute: (ctx) => setValidatorGeneratorKey(ctx, ctx.senderAddress, ctx.params.generatorKey),
});

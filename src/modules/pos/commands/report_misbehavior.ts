import { areHeadersContradicting } from '../../../engine/bft/index.js';
import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import { blockHeaderID, decodeBlockHeader, verifyBlockHeaderSignature } from '../../../lib/chain/block.js';
import type { Schema } from '../../../lib/codec/index.js';
import type { TokenMethod } from '../../token/method.js';
import type { ValidatorKeys } from '../../validators/schemas.js';
import { validatorKeysSchema } from '../../validators/schemas.js';
import { validatorsStore } from '../../validators/stores.js';
import type { PoSConfig } from '../config.js';
import { logPosEvent } from '../events.js';
import { getValidatorAccount, getValidatorWeight, setValidatorAccount, updateEligibleValidator } from '../method.js';
import type { PendingUnlock, Stake } from '../schemas.js';
import { stakerStoreSchema } from '../schemas.js';
import { MODULE_NAME, posStore } from '../stores.js';

export const reportMisbehaviorParamsSchema = {
  $id: '/pos/command/reportMisbehaviorParams',
  type: 'object',
  required: ['header1', 'header2'],
  properties: { header1: { dataType: 'bytes', fieldNumber: 1 }, header2: { dataType: 'bytes', fieldNumber: 2 } },
} as const satisfies Schema;

interface ReportParams {
  header1: Buffer;
  header2: Buffer;
}

/**
 * pos:reportMisbehavior — two contradicting headers signed by one validator (LIP 0058): the
 * validator is punished (banned at the limit) and the reporter receives part of its self-stake.
 */
export const reportMisbehaviorCommand = (config: PoSConfig, token: TokenMethod): Command<ReportParams> => ({
  name: 'reportMisbehavior',
  schema: reportMisbehaviorParamsSchema,
  verify: (ctx: CommandContext<ReportParams>) => {
    const header1 = decodeBlockHeader(ctx.params.header1);
    const header2 = decodeBlockHeader(ctx.params.header2);
    if (!header1.generatorAddress.equals(header2.generatorAddress))
      throw new Error('Different generator address never contradict to each other.');
    const address = header1.generatorAddress;
    const validator = getValidatorAccount(ctx, address);
    const keys = validatorsStore(ctx, 'validatorKeys').getWithSchema<ValidatorKeys>(address, validatorKeysSchema);
    if (keys === undefined) throw new Error('No validator found with the given address.');
    for (const h of [header1, header2]) {
      if (!verifyBlockHeaderSignature(h, keys.generatorKey, ctx.chainID))
        throw new Error(
          `Invalid signature ${h.signature.toString('hex')} of the block with id: ${blockHeaderID(h).toString('hex')}`,
        );
    }
    const height = ctx.header.height;
    if (
      Math.max(Math.abs(header1.height - height), Math.abs(header2.height - height)) >= config.lockingPeriodSelfStaking
    )
      throw new Error('Locking period has expired.');
    const lastReport =
      validator.reportMisbehaviorHeights.length === 0 ? undefined : Math.max(...validator.reportMisbehaviorHeights);
    if (lastReport !== undefined && lastReport + config.punishmentWindowSelfStaking - height > 0)
      throw new Error('Validator is already punished.');
    if (validator.isBanned) throw new Error('Validator is already banned.');
    if (
      !areHeadersContradicting({ ...header1, id: blockHeaderID(header1) }, { ...header2, id: blockHeaderID(header2) })
    ) {
      throw new Error('BlockHeaders are not contradicting as per BFT violation rules.');
    }
  },
  execute: (ctx: CommandContext<ReportParams>) => {
    const height = ctx.header.height;
    const punished = decodeBlockHeader(ctx.params.header1).generatorAddress;
    const validator = getValidatorAccount(ctx, punished);
    validator.reportMisbehaviorHeights.push(height);
    logPosEvent(ctx, 'validatorPunished', { address: punished, height }, [punished]);
    if (validator.reportMisbehaviorHeights.length === config.reportMisbehaviorLimitBanned) {
      validator.isBanned = true;
      logPosEvent(ctx, 'validatorBanned', { address: punished, height }, [punished]);
    }
    // the smaller of the two (bigints: no Math.min)
    let reward = config.reportMisbehaviorReward;
    if (validator.selfStake < reward) reward = validator.selfStake;
    if (reward > 0n) {
      token.unlock(ctx, punished, MODULE_NAME, config.posTokenID, reward);
      token.transfer(ctx, punished, ctx.senderAddress, config.posTokenID, reward);
    }
    const oldWeight = getValidatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
    validator.selfStake -= reward;
    validator.totalStake -= reward;
    setValidatorAccount(ctx, punished, validator);
    updateEligibleValidator(ctx, config, punished, oldWeight, validator);
    // as Klayr: the punished validator's own staker entry holds its self-stake (without one, the report fails)
    const stakers = posStore(ctx, 'staker');
    const staker = stakers.getWithSchema<{ stakes: Stake[]; pendingUnlocks: PendingUnlock[] }>(
      punished,
      stakerStoreSchema,
    );
    if (staker === undefined) throw new Error(`Staker ${punished.toString('hex')} does not exist.`);
    const self = staker.stakes.find((s) => s.validatorAddress.equals(punished));
    if (self === undefined) throw new TypeError('The punished validator has no self-stake entry.');
    self.amount -= reward;
    stakers.setWithSchema(punished, staker, stakerStoreSchema);
  },
});

import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import { payFee } from '../../fee/method.js';
import { registerValidatorKeys } from '../../validators/method.js';
import type { PoSConfig } from '../config.js';
import { logPosEvent } from '../events.js';
import { isUsername } from '../genesis.js';
import { setValidatorAccount } from '../method.js';
import { nameStoreSchema } from '../schemas.js';
import { posStore } from '../stores.js';

export const DEFAULT_COMMISSION = 10000;

export const registerValidatorParamsSchema = {
  $id: '/pos/command/registerValidatorParams',
  type: 'object',
  required: ['name', 'blsKey', 'proofOfPossession', 'generatorKey'],
  properties: {
    name: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: 20 },
    blsKey: { dataType: 'bytes', minLength: 48, maxLength: 48, fieldNumber: 2 },
    proofOfPossession: { dataType: 'bytes', minLength: 96, maxLength: 96, fieldNumber: 3 },
    generatorKey: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 4 },
  },
} as const satisfies Schema;

interface RegisterValidatorParams {
  name: string;
  blsKey: Buffer;
  proofOfPossession: Buffer;
  generatorKey: Buffer;
}

/** pos:registerValidator — a new validator with its keys and a unique name, for the registration fee. */
export const registerValidatorCommand = (config: PoSConfig): Command<RegisterValidatorParams> => ({
  name: 'registerValidator',
  schema: registerValidatorParamsSchema,
  verify: (ctx: CommandContext<RegisterValidatorParams>) => {
    const { name } = ctx.params;
    if (!isUsername(name)) throw new Error(`'name' is in an unsupported format: ${name}`);
    if (posStore(ctx, 'name').has(Buffer.from(name, 'utf8')))
      throw new Error('Name substore must not have an entry for the store key name');
    if (posStore(ctx, 'validator').has(ctx.senderAddress))
      throw new Error('Validator substore must not have an entry for the store key address');
    if (ctx.transaction.fee < config.validatorRegistrationFee) throw new Error('Insufficient transaction fee.');
  },
  execute: (ctx: CommandContext<RegisterValidatorParams>) => {
    const { name, blsKey, generatorKey, proofOfPossession } = ctx.params;
    const { height } = ctx.header;
    registerValidatorKeys(ctx, ctx.senderAddress, blsKey, generatorKey, proofOfPossession);
    payFee(ctx, config.validatorRegistrationFee);
    setValidatorAccount(ctx, ctx.senderAddress, {
      name,
      totalStake: 0n,
      selfStake: 0n,
      lastGeneratedHeight: height,
      isBanned: false,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: DEFAULT_COMMISSION,
      lastCommissionIncreaseHeight: height,
      sharingCoefficients: [],
    });
    posStore(ctx, 'name').setWithSchema(
      Buffer.from(name, 'utf8'),
      { validatorAddress: ctx.senderAddress },
      nameStoreSchema,
    );
    logPosEvent(ctx, 'validatorRegistered', { address: ctx.senderAddress, name }, [ctx.senderAddress]);
  },
});

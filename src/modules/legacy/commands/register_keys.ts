import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import { compile } from '../../../lib/codec/index.js';
import type { PoSConfig } from '../../pos/config.js';
import { unbanValidator } from '../../pos/method.js';
import { INVALID_BLS_KEY, setValidatorBLSKey, setValidatorGeneratorKey } from '../../validators/method.js';
import type { ValidatorKeys } from '../../validators/schemas.js';
import { validatorKeysSchema } from '../../validators/schemas.js';
import { validatorsStore } from '../../validators/stores.js';
import { legacyEventSchemas } from '../events.js';
import { registerKeysParamsSchema } from '../schemas.js';
import { MODULE_NAME } from '../stores.js';

interface RegisterKeysParams {
  blsKey: Buffer;
  proofOfPossession: Buffer;
  generatorKey: Buffer;
}

/** legacy:registerKeys — a migrated validator without a BLS key registers its keys, which lifts its ban. */
export const registerKeysCommand = (pos: PoSConfig): Command<RegisterKeysParams> => ({
  name: 'registerKeys',
  schema: registerKeysParamsSchema,
  verify: (ctx: CommandContext<RegisterKeysParams>) => {
    const keys = validatorsStore(ctx, 'validatorKeys').getWithSchema<ValidatorKeys>(
      ctx.senderAddress,
      validatorKeysSchema,
    );
    if (keys === undefined) throw new Error(`No validator keys for ${ctx.senderAddress.toString('hex')}.`);
    if (!keys.blsKey.equals(INVALID_BLS_KEY)) throw new Error('Validator already has a registered BLS key.');
  },
  execute: (ctx: CommandContext<RegisterKeysParams>) => {
    const { blsKey, proofOfPossession, generatorKey } = ctx.params;
    setValidatorGeneratorKey(ctx, ctx.senderAddress, generatorKey);
    setValidatorBLSKey(ctx, ctx.senderAddress, blsKey, proofOfPossession);
    const data = compile(legacyEventSchemas.keysRegistered).encode({
      address: ctx.senderAddress,
      generatorKey,
      blsKey,
    });
    ctx.events.add(MODULE_NAME, 'keysRegistered', data, [ctx.senderAddress, generatorKey, blsKey]);
    unbanValidator(ctx, pos, ctx.senderAddress);
  },
});

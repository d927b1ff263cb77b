import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import { compile } from '../../../lib/codec/index.js';
import { verifyData } from '../../../lib/crypto/ed25519.js';
import { MESSAGE_TAG_MULTISIG_REG } from '../../../lib/crypto/tags.js';
import { authEventSchemas } from '../events.js';
import { getAuthAccount } from '../method.js';
import { authAccountSchema, MAX_NUMBER_OF_SIGNATURES, multisigRegMsgSchema } from '../schemas.js';
import { authAccountStore, MODULE_NAME } from '../stores.js';

const keys = { type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 } } as const;

export const registerMultisignatureParamsSchema = {
  $id: '/auth/command/regMultisig',
  type: 'object',
  required: ['numberOfSignatures', 'mandatoryKeys', 'optionalKeys', 'signatures'],
  properties: {
    numberOfSignatures: { dataType: 'uint32', fieldNumber: 1, minimum: 1, maximum: 64 },
    mandatoryKeys: { ...keys, fieldNumber: 2, minItems: 0, maxItems: 64 },
    optionalKeys: { ...keys, fieldNumber: 3, minItems: 0, maxItems: 64 },
    signatures: { type: 'array', items: { dataType: 'bytes', minLength: 64, maxLength: 64 }, fieldNumber: 4 },
  },
} as const satisfies Schema;

interface RegisterMultisignatureParams {
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
  signatures: Buffer[];
}

const unique = (items: readonly Buffer[]): boolean =>
  new Set(items.map((b) => b.toString('hex'))).size === items.length;
const ordered = (items: readonly Buffer[]): boolean =>
  items.every((b, i) => i === 0 || Buffer.compare(items[i - 1], b) < 0);

/** auth:registerMultisignature — turns the sender's account into a multisignature account; every member signs the registration. */
export const registerMultisignatureCommand = (): Command<RegisterMultisignatureParams> => ({
  name: 'registerMultisignature',
  schema: registerMultisignatureParamsSchema,
  verify: (ctx: CommandContext<RegisterMultisignatureParams>) => {
    const { mandatoryKeys, optionalKeys, numberOfSignatures, signatures } = ctx.params;
    const total = mandatoryKeys.length + optionalKeys.length;
    if (!unique(mandatoryKeys)) throw new Error('MandatoryKeys contains duplicate public keys.');
    if (!unique(optionalKeys)) throw new Error('OptionalKeys contains duplicate public keys.');
    if (total < numberOfSignatures)
      throw new Error('The numberOfSignatures is bigger than the count of Mandatory and Optional keys.');
    if (total > MAX_NUMBER_OF_SIGNATURES || total < 1)
      throw new Error(`The count of Mandatory and Optional keys should be between 1 and ${MAX_NUMBER_OF_SIGNATURES}.`);
    if (mandatoryKeys.length > numberOfSignatures)
      throw new Error('The numberOfSignatures needs to be equal or bigger than the number of Mandatory keys.');
    if (mandatoryKeys.some((k) => optionalKeys.some((o) => o.equals(k)))) {
      throw new Error(
        'Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.',
      );
    }
    if (total !== signatures.length)
      throw new Error('The number of mandatory and optional keys should match the number of signatures');
    if (!ordered(mandatoryKeys)) throw new Error('Mandatory keys should be sorted lexicographically.');
    if (!ordered(optionalKeys)) throw new Error('Optional keys should be sorted lexicographically.');
  },
  execute: (ctx: CommandContext<RegisterMultisignatureParams>) => {
    const { numberOfSignatures, mandatoryKeys, optionalKeys, signatures } = ctx.params;
    const group = { numberOfSignatures, mandatoryKeys, optionalKeys };
    const message = compile(multisigRegMsgSchema).encode({
      address: ctx.senderAddress,
      nonce: ctx.transaction.nonce,
      ...group,
    });
    [...mandatoryKeys, ...optionalKeys].forEach((key, i) => {
      const signature = signatures[i];
      if (verifyData(MESSAGE_TAG_MULTISIG_REG, ctx.chainID, message, signature, key)) return;
      const data = compile(authEventSchemas.invalidSignature).encode({
        ...group,
        failingPublicKey: key,
        failingSignature: signature,
      });
      ctx.events.add(MODULE_NAME, 'invalidSignature', data, [ctx.senderAddress], true);
      throw new Error(`Invalid signature for public key ${key.toString('hex')}.`);
    });
    const account = getAuthAccount(ctx, ctx.senderAddress);
    if (account === undefined)
      throw new Error(`Auth account for address ${ctx.senderAddress.toString('hex')} does not exist.`);
    authAccountStore(ctx).setWithSchema(ctx.senderAddress, { ...account, ...group }, authAccountSchema);
    ctx.events.add(
      MODULE_NAME,
      'multisignatureRegistration',
      compile(authEventSchemas.multisignatureRegistration).encode(group),
      [ctx.senderAddress],
    );
  },
});

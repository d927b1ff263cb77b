import { compile } from '../../lib/codec/index.js';
import type { Schema } from '../../lib/codec/index.js';
import { sha256 } from '../../lib/crypto/hash.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import type { Command, CommandContext, StoreAccess } from '../../engine/state_machine/module.js';
import type { PoSConfig } from '../pos/config.js';
import { unbanValidator } from '../pos/method.js';
import type { TokenMethod } from '../token/method.js';
import { setValidatorBLSKey, setValidatorGeneratorKey } from '../validators/method.js';
import { INVALID_BLS_KEY } from '../validators/method.js';
import { validatorKeysSchema } from '../validators/schemas.js';
import type { ValidatorKeys } from '../validators/schemas.js';
import { validatorsStore } from '../validators/stores.js';

export const MODULE_NAME = 'legacy';
/** The account holding the unclaimed legacy balances, locked by this module (sha256("legacyReserve")[0..20]). */
export const ADDRESS_LEGACY_RESERVE = sha256(Buffer.from('legacyReserve', 'utf8')).subarray(0, 20);

export const legacyAccountStoreSchema = {
  $id: '/legacy/store/genesis',
  type: 'object',
  required: ['balance'],
  properties: { balance: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

export const legacyStore = (view: StoreAccess) => view.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));

/** A legacy (Lisk 2/3) address: the first 8 bytes of sha256(publicKey), reversed. */
export const legacyAddressOf = (publicKey: Buffer): Buffer => Buffer.from(sha256(publicKey).subarray(0, 8)).reverse();

export const reclaimParamsSchema = {
  $id: '/legacy/command/reclaimLSKParams',
  type: 'object',
  required: ['amount'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

export const registerKeysParamsSchema = {
  $id: '/legacy/command/registerKeysParams',
  type: 'object',
  required: ['blsKey', 'proofOfPossession', 'generatorKey'],
  properties: {
    blsKey: { dataType: 'bytes', minLength: 48, maxLength: 48, fieldNumber: 1 },
    proofOfPossession: { dataType: 'bytes', minLength: 96, maxLength: 96, fieldNumber: 2 },
    generatorKey: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 3 },
  },
} as const satisfies Schema;

export const legacyEventSchemas = {
  accountReclaimed: {
    $id: 'klayr/legacy/accountReclaimedEventData',
    type: 'object',
    required: ['legacyAddress', 'address', 'amount'],
    properties: { legacyAddress: { dataType: 'bytes', maxLength: 8, fieldNumber: 1 }, address: { dataType: 'bytes', maxLength: 20, fieldNumber: 2 }, amount: { dataType: 'uint64', fieldNumber: 3 } },
  },
  keysRegistered: {
    $id: 'klayr/legacy/keysRegisteredEventData',
    type: 'object',
    required: ['address', 'generatorKey', 'blsKey'],
    properties: { address: { dataType: 'bytes', maxLength: 20, fieldNumber: 1 }, generatorKey: { dataType: 'bytes', maxLength: 32, fieldNumber: 2 }, blsKey: { dataType: 'bytes', maxLength: 48, fieldNumber: 3 } },
  },
} as const satisfies Record<string, Schema>;

/** legacy:reclaimKLY — the owner of a migrated legacy account takes its whole balance from the legacy reserve. */
export const reclaimCommand = (token: TokenMethod, tokenIDReclaim: Buffer): Command<{ amount: bigint }> => ({
  name: 'reclaimKLY',
  schema: reclaimParamsSchema,
  verify: (ctx: CommandContext<{ amount: bigint }>) => {
    const account = legacyStore(ctx).getWithSchema<{ balance: bigint }>(legacyAddressOf(ctx.transaction.senderPublicKey), legacyAccountStoreSchema);
    if (account === undefined) throw new Error('Public key does not correspond to a reclaimable account.');
    if (account.balance !== ctx.params.amount) throw new Error('Input amount does not equal the balance of the legacy account.');
  },
  execute: (ctx: CommandContext<{ amount: bigint }>) => {
    const legacyAddress = legacyAddressOf(ctx.transaction.senderPublicKey);
    const { amount } = ctx.params;
    legacyStore(ctx).del(legacyAddress);
    token.unlock(ctx, ADDRESS_LEGACY_RESERVE, MODULE_NAME, tokenIDReclaim, amount);
    token.transfer(ctx, ADDRESS_LEGACY_RESERVE, ctx.senderAddress, tokenIDReclaim, amount);
    const data = compile(legacyEventSchemas.accountReclaimed).encode({ legacyAddress, address: ctx.senderAddress, amount });
    ctx.events.add(MODULE_NAME, 'accountReclaimed', data, [legacyAddress, ctx.senderAddress]);
  },
});

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
    const keys = validatorsStore(ctx, 'validatorKeys').getWithSchema<ValidatorKeys>(ctx.senderAddress, validatorKeysSchema);
    if (keys === undefined) throw new Error(`No validator keys for ${ctx.senderAddress.toString('hex')}.`);
    if (!keys.blsKey.equals(INVALID_BLS_KEY)) throw new Error('Validator already has a registered BLS key.');
  },
  execute: (ctx: CommandContext<RegisterKeysParams>) => {
    const { blsKey, proofOfPossession, generatorKey } = ctx.params;
    setValidatorGeneratorKey(ctx, ctx.senderAddress, generatorKey);
    setValidatorBLSKey(ctx, ctx.senderAddress, blsKey, proofOfPossession);
    const data = compile(legacyEventSchemas.keysRegistered).encode({ address: ctx.senderAddress, generatorKey, blsKey });
    ctx.events.add(MODULE_NAME, 'keysRegistered', data, [ctx.senderAddress, generatorKey, blsKey]);
    unbanValidator(ctx, pos, ctx.senderAddress);
  },
});

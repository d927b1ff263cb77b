import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { compile, RecentDecodes } from '../../lib/codec/index.js';
import { blsPopVerify } from '../../lib/crypto/bls.js';
import type { ValidatorKeys } from './schemas.js';
import {
  blsKeyDataSchema,
  blsKeyRegDataSchema,
  generatorKeyRegDataSchema,
  KEY_REG_RESULT,
  validatorKeysSchema,
  validatorsParamsSchema,
} from './schemas.js';
import { MODULE_NAME, validatorsStore } from './stores.js';

type Context = Pick<GenesisContext, 'store' | 'events'>;

/** A BLS key of zeros marks a validator registered without one. */
export const INVALID_BLS_KEY = Buffer.alloc(48);

const generatorEvent = compile<{ generatorKey: Buffer; result: number }>(generatorKeyRegDataSchema);
const blsEvent = compile<{ blsKey: Buffer; proofOfPossession: Buffer; result: number }>(blsKeyRegDataSchema);
const keysCodec: CompiledSchema<ValidatorKeys> = compile<ValidatorKeys>(validatorKeysSchema);

const logGenerator = (ctx: Context, address: Buffer, generatorKey: Buffer, result: number): void =>
  ctx.events.add(
    MODULE_NAME,
    'generatorKeyRegistration',
    generatorEvent.encode({ generatorKey, result }),
    [address],
    result !== KEY_REG_RESULT.SUCCESS,
  );
const logBLS = (ctx: Context, address: Buffer, blsKey: Buffer, proofOfPossession: Buffer, result: number): void =>
  ctx.events.add(
    MODULE_NAME,
    'blsKeyRegistration',
    blsEvent.encode({ blsKey, proofOfPossession, result }),
    [address],
    result !== KEY_REG_RESULT.SUCCESS,
  );

/** A BLS key may be registered once, with a valid proof of possession; a refusal is logged (kept on revert) before throwing. */
const checkNewBLSKey = (ctx: Context, address: Buffer, blsKey: Buffer, proofOfPossession: Buffer): void => {
  if (validatorsStore(ctx, 'blsKeys').has(blsKey)) {
    logBLS(ctx, address, blsKey, proofOfPossession, KEY_REG_RESULT.DUPLICATE_BLS_KEY);
    throw new Error(`The BLS key ${blsKey.toString('hex')} has already been registered in the chain.`);
  }
  if (!blsPopVerify(blsKey, proofOfPossession)) {
    logBLS(ctx, address, blsKey, proofOfPossession, KEY_REG_RESULT.INVALID_POP);
    throw new Error('Invalid proof of possession for the given BLS key.');
  }
};

/**
 * Registers a validator's generator and BLS keys (validators method registerValidatorKeys):
 * refuses an existing validator, a BLS key already registered and an invalid proof of
 * possession, logging the failed registration (kept on revert) before throwing.
 */
export const registerValidatorKeys = (
  ctx: Context,
  address: Buffer,
  blsKey: Buffer,
  generatorKey: Buffer,
  proofOfPossession: Buffer,
): void => {
  if (address.length !== 20) throw new Error('Address is not valid.');
  if (blsKey.length !== 48) throw new Error('BLS public key is not valid.');
  if (proofOfPossession.length !== 96) throw new Error('Proof of possession is not valid.');
  keysCodec.validate({ generatorKey, blsKey });
  const keys = validatorsStore(ctx, 'validatorKeys');
  if (keys.has(address)) {
    logGenerator(ctx, address, generatorKey, KEY_REG_RESULT.ALREADY_VALIDATOR);
    throw new Error('This address is already registered as validator.');
  }
  const blsKeys = validatorsStore(ctx, 'blsKeys');
  checkNewBLSKey(ctx, address, blsKey, proofOfPossession);
  keys.setWithSchema(address, { generatorKey, blsKey }, validatorKeysSchema);
  blsKeys.setWithSchema(blsKey, { address }, blsKeyDataSchema);
  logGenerator(ctx, address, generatorKey, KEY_REG_RESULT.SUCCESS);
  logBLS(ctx, address, blsKey, proofOfPossession, KEY_REG_RESULT.SUCCESS);
};

/** Registers only a generator key (validators method registerValidatorWithoutBLSKey). */
export const registerValidatorWithoutBLSKey = (ctx: Context, address: Buffer, generatorKey: Buffer): void => {
  if (address.length !== 20) throw new Error('Address is not valid.');
  keysCodec.validate({ generatorKey, blsKey: INVALID_BLS_KEY });
  const keys = validatorsStore(ctx, 'validatorKeys');
  if (keys.has(address)) {
    logGenerator(ctx, address, generatorKey, KEY_REG_RESULT.ALREADY_VALIDATOR);
    throw new Error('This address is already registered as validator.');
  }
  keys.setWithSchema(address, { generatorKey, blsKey: INVALID_BLS_KEY }, validatorKeysSchema);
  logGenerator(ctx, address, generatorKey, KEY_REG_RESULT.SUCCESS);
};

/** Stores the next validator set with their keys and hands it to BFT (validators method setValidatorsParams). */
export const setValidatorsParams = (
  ctx: Pick<GenesisContext, 'store' | 'setNextValidators'>,
  precommitThreshold: bigint,
  certificateThreshold: bigint,
  validators: readonly { address: Buffer; bftWeight: bigint }[],
): void => {
  const keys = validatorsStore(ctx, 'validatorKeys');
  const withKeys = validators.map((v) => {
    const k = keys.getWithSchema<ValidatorKeys>(v.address, validatorKeysSchema);
    if (k === undefined) throw new Error(`Validator ${v.address.toString('hex')} has no registered keys.`);
    return { address: v.address, bftWeight: v.bftWeight, generatorKey: k.generatorKey, blsKey: k.blsKey };
  });
  validatorsStore(ctx, 'validatorsParams').setWithSchema(
    Buffer.alloc(0),
    { preCommitThreshold: precommitThreshold, certificateThreshold, validators: withKeys },
    validatorsParamsSchema,
  );
  ctx.setNextValidators({ precommitThreshold, certificateThreshold, validators: withKeys });
};

export interface ValidatorsParams {
  preCommitThreshold: bigint;
  certificateThreshold: bigint;
  validators: { address: Buffer; bftWeight: bigint; generatorKey: Buffer; blsKey: Buffer }[];
}

// every block's reward reads the set (about 11 KB with 103 validators' keys) two or three times; it changes once a round
const decodedParams = new RecentDecodes<ValidatorsParams>(compile<ValidatorsParams>(validatorsParamsSchema), 2);
/** The validators' addresses as latin1 strings (getGeneratorsBetweenTimestamps' keys), per decoded set. */
const addressKeys = new WeakMap<ValidatorsParams, string[]>();

/** The current validator set and its thresholds: shared and frozen, to read only. */
export const getValidatorsParams = (ctx: Pick<GenesisContext, 'store'>): Readonly<ValidatorsParams> => {
  const bytes = validatorsStore(ctx, 'validatorsParams').get(Buffer.alloc(0));
  if (bytes === undefined) throw new Error('Validators params are not set.');
  return decodedParams.decode(bytes);
};

/**
 * How many slots each validator of the current set had strictly between two timestamps (the
 * blocks missed between two consecutive blocks), keyed by address in latin1 as Klayr's
 * getGeneratorsBetweenTimestamps keys them (insertion order matters to its callers).
 */
export const getGeneratorsBetweenTimestamps = (
  ctx: Pick<GenesisContext, 'store'>,
  blockTime: number,
  startTimestamp: number,
  endTimestamp: number,
): Map<string, number> => {
  if (endTimestamp < startTimestamp) throw new Error('End timestamp must be greater than or equal to start timestamp.');
  const result = new Map<string, number>();
  const startSlot = Math.floor(startTimestamp / blockTime) + 1;
  const endSlot = Math.floor(endTimestamp / blockTime) - 1;
  if (startSlot > endSlot) return result;
  let totalSlots = endSlot - startSlot + 1;
  const params = getValidatorsParams(ctx);
  let addresses = addressKeys.get(params);
  if (addresses === undefined) {
    addresses = params.validators.map((v) => v.address.toString('latin1'));
    addressKeys.set(params, addresses);
  }
  const baseSlots = Math.floor(totalSlots / addresses.length);
  if (baseSlots > 0) {
    totalSlots -= baseSlots * addresses.length;
    for (const a of addresses) result.set(a, baseSlots);
  }
  for (let slot = startSlot; slot < startSlot + totalSlots; slot++) {
    const a = addresses[slot % addresses.length];
    result.set(a, (result.get(a) ?? 0) + 1);
  }
  return result;
};

/** Replaces a registered validator's generator key (validators method setValidatorGeneratorKey). */
export const setValidatorGeneratorKey = (ctx: Context, address: Buffer, generatorKey: Buffer): void => {
  if (address.length !== 20) throw new Error('Address is not valid.');
  if (generatorKey.length !== 32) throw new Error('Generator key is not valid.');
  const keys = validatorsStore(ctx, 'validatorKeys');
  const current = keys.getWithSchema<ValidatorKeys>(address, validatorKeysSchema);
  if (current === undefined) {
    logGenerator(ctx, address, generatorKey, KEY_REG_RESULT.NO_VALIDATOR);
    throw new Error('This address is not registered as validator. Only validators can register a generator key.');
  }
  keys.setWithSchema(address, { ...current, generatorKey }, validatorKeysSchema);
  logGenerator(ctx, address, generatorKey, KEY_REG_RESULT.SUCCESS);
};

/** Gives a registered validator its BLS key (validators method setValidatorBLSKey), with the proof of possession. */
export const setValidatorBLSKey = (ctx: Context, address: Buffer, blsKey: Buffer, proofOfPossession: Buffer): void => {
  if (address.length !== 20) throw new Error('Address is not valid.');
  if (blsKey.length !== 48) throw new Error('BLS public key is not valid.');
  if (proofOfPossession.length !== 96) throw new Error('Proof of possession is not valid.');
  const keys = validatorsStore(ctx, 'validatorKeys');
  const current = keys.getWithSchema<ValidatorKeys>(address, validatorKeysSchema);
  if (current === undefined) {
    logBLS(ctx, address, blsKey, proofOfPossession, KEY_REG_RESULT.NO_VALIDATOR);
    throw new Error('This address is not registered as validator. Only validators can register a BLS key.');
  }
  const blsKeys = validatorsStore(ctx, 'blsKeys');
  checkNewBLSKey(ctx, address, blsKey, proofOfPossession);
  keys.setWithSchema(address, { ...current, blsKey }, validatorKeysSchema);
  blsKeys.setWithSchema(blsKey, { address }, blsKeyDataSchema);
  logBLS(ctx, address, blsKey, proofOfPossession, KEY_REG_RESULT.SUCCESS);
};

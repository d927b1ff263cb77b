import type { CCMessage } from '../../../engine/state_machine/cross_chain.js';
import type { CompiledSchema } from '../../../lib/codec/index.js';
import { compile } from '../../../lib/codec/index.js';
import { sha256 } from '../../../lib/crypto/hash.js';
import type { CCUParams } from '../../../lib/interop/schemas.js';
import { ccmSchema } from '../../../lib/interop/schemas.js';
import { EMPTY_BYTES, MAX_CCM_SIZE } from './constants.js';

export const ccmCodec: CompiledSchema<CCMessage> = compile<CCMessage>(ccmSchema);
const NAME_REGEX = /^[a-zA-Z0-9]*$/;
const VALID_NAME = /^[a-z0-9!@$&_.]+$/;

/** A chain name may use only a-z0-9!@$&_. (Klayr's isValidName). */
export const isValidName = (name: string): boolean => VALID_NAME.test(name);
export const invalidNameError = (property = 'name'): Error =>
  new Error(`Invalid ${property} property. It should contain only characters from the set [a-z0-9!@$&_.].`);

/** The mainchain of a chain's network: its first byte followed by zeros. */
export const getMainchainID = (chainID: Buffer): Buffer => Buffer.concat([chainID.subarray(0, 1), Buffer.alloc(3)]);
/** The mainchain's KLY token ID of a chain's network. */
export const getTokenIDKLY = (chainID: Buffer): Buffer => Buffer.concat([chainID.subarray(0, 1), Buffer.alloc(7)]);

export const ccmID = (ccmBytes: Buffer): Buffer => sha256(ccmBytes);
export const encodeCCM = (ccm: CCMessage): Buffer => ccmCodec.encode(ccm);
export const ccmWithoutParams = (ccm: CCMessage): CCMessage => ({ ...ccm, params: EMPTY_BYTES });

/** An empty CCM (Klayr's EmptyCCM) for events about messages that cannot be decoded. */
export const EMPTY_CCM: CCMessage = {
  module: '',
  crossChainCommand: '',
  nonce: 0n,
  fee: 0n,
  sendingChainID: EMPTY_BYTES,
  receivingChainID: EMPTY_BYTES,
  params: EMPTY_BYTES,
  status: 0,
};

/** Klayr's validateFormat: the schema, alphanumeric module and command names, at most MAX_CCM_SIZE bytes. */
export const validateCCMFormat = (ccm: CCMessage): void => {
  ccmCodec.validate(ccm);
  const size = ccmCodec.encode(ccm).length;
  for (const field of ['module', 'crossChainCommand'] as const) {
    if (!NAME_REGEX.test(ccm[field])) throw new Error(`Cross-chain message ${field} name must be alphanumeric.`);
  }
  if (size > MAX_CCM_SIZE) throw new Error(`Cross-chain message size is larger than ${MAX_CCM_SIZE}.`);
};

export const isInboxUpdateEmpty = (inboxUpdate: CCUParams['inboxUpdate']): boolean =>
  inboxUpdate.crossChainMessages.length === 0 &&
  inboxUpdate.messageWitnessHashes.length === 0 &&
  inboxUpdate.outboxRootWitness.siblingHashes.length === 0 &&
  inboxUpdate.outboxRootWitness.bitmap.length === 0;

export const isActiveValidatorsUpdateEmpty = (update: CCUParams['activeValidatorsUpdate']): boolean =>
  update.blsKeysUpdate.length === 0 &&
  update.bftWeightsUpdate.length === 0 &&
  update.bftWeightsUpdateBitmap.length === 0;

export interface ActiveValidator {
  blsKey: Buffer;
  bftWeight: bigint;
}

/** The bitmap as an integer, as Klayr reads it (an empty bitmap throws, as BigInt('0x') does). */
export const bitmapBits = (bitmap: Buffer): bigint => BigInt(`0x${bitmap.toString('hex')}`);

/** Klayr's calculateNewActiveValidators: new keys join with weight 0, the bitmap (over BLS key order) picks whose weight changes, zero weights leave. */
export const calculateNewActiveValidators = (
  active: readonly ActiveValidator[],
  blsKeysUpdate: readonly Buffer[],
  bftWeightsUpdate: readonly bigint[],
  bitmap: Buffer,
): ActiveValidator[] => {
  const all = [...active.map((v) => ({ ...v })), ...blsKeysUpdate.map((blsKey) => ({ blsKey, bftWeight: 0n }))];
  all.sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));
  const bits = bitmapBits(bitmap);
  let used = 0;
  for (let i = 0; i < all.length; i++) {
    if (((bits >> BigInt(i)) & 1n) === 1n) {
      // Klayr assigns undefined past the end of the updates; the count check below then fails
      all[i].bftWeight = bftWeightsUpdate[used] as bigint;
      used++;
    }
  }
  if (used !== bftWeightsUpdate.length) throw new Error('No BFT weights should be left.');
  return all.filter((v) => v.bftWeight > 0n);
};

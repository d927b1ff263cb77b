import { timingSafeEqual } from 'node:crypto';
import blst from '@chainsafe/blst';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { deleteOldest } from '../collections.js';
import { assertLength } from './bytes.js';
import { sha256 } from './hash.js';
import { tagMessage } from './tags.js';

export const BLS_PRIVATE_KEY_LENGTH = 32;
export const BLS_PUBLIC_KEY_LENGTH = 48;
export const BLS_SIGNATURE_LENGTH = 96;
const DST_POP = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

const GROUP_ORDER = Buffer.from('73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001', 'hex');
const GROUP_ORDER_DOUBLE = Buffer.from('e7db4ea6533afa906673b0101343b00aa77b4805fffcb7fdfffffffe00000002', 'hex');

const secretKey = (sk: Uint8Array): blst.SecretKey => {
  assertLength(sk, BLS_PRIVATE_KEY_LENGTH, 'BLS private key');
  if (timingSafeEqual(sk, GROUP_ORDER) || timingSafeEqual(sk, GROUP_ORDER_DOUBLE))
    throw new Error('Secret key is not valid.');
  return blst.SecretKey.fromBytes(sk);
};

/** IETF KeyGen (HKDF mod r) of input key material of at least 32 bytes. */
export const blsKeyGen = (ikm: Uint8Array): Buffer => Buffer.from(blst.SecretKey.fromKeygen(ikm).toBytes());

export const blsPublicKeyFromPrivateKey = (sk: Uint8Array): Buffer =>
  Buffer.from(secretKey(sk).toPublicKey().toBytes());

/** True when the bytes are a valid compressed G1 point, in the subgroup, not infinity. */
export const blsValidateKey = (pk: Uint8Array): boolean => {
  try {
    blst.PublicKey.fromBytes(pk, true);
    return true;
  } catch {
    return false;
  }
};

export const blsSign = (sk: Uint8Array, message: Uint8Array): Buffer =>
  Buffer.from(secretKey(sk).sign(message).toBytes());

export const blsVerify = (pk: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean => {
  try {
    return blst.verify(message, blst.PublicKey.fromBytes(pk, true), blst.Signature.fromBytes(signature, true));
  } catch {
    return false;
  }
};

/** Aggregate signature, or undefined when any input is not a valid signature. */
export const blsAggregate = (signatures: readonly Uint8Array[]): Buffer | undefined => {
  try {
    return Buffer.from(blst.aggregateSerializedSignatures([...signatures], true).toBytes());
  } catch {
    return undefined;
  }
};

export const blsFastAggregateVerify = (
  publicKeys: readonly (Uint8Array | blst.PublicKey)[],
  message: Uint8Array,
  signature: Uint8Array,
): boolean => {
  if (publicKeys.length === 0) return false;
  try {
    const keys = publicKeys.map((k) => (k instanceof Uint8Array ? blst.PublicKey.fromBytes(k, true) : k));
    return blst.fastAggregateVerify(message, keys, blst.Signature.fromBytes(signature, true));
  } catch {
    return false;
  }
};

/** Klayr's BLS signature of `sha256(tag || chainID || data)`. */
export const blsSignData = (tag: string, chainID: Uint8Array, data: Uint8Array, sk: Uint8Array): Buffer =>
  blsSign(sk, sha256(tagMessage(tag, chainID, data)));

export const blsVerifyData = (
  tag: string,
  chainID: Uint8Array,
  data: Uint8Array,
  signature: Uint8Array,
  pk: Uint8Array,
): boolean => blsVerify(pk, sha256(tagMessage(tag, chainID, data)), signature);

// Proof of possession uses its own hash-to-curve domain, which @chainsafe/blst 2.x does not expose; it is rare, so noble does it.
const sigs = bls12_381.longSignatures;

export const blsPopProve = (sk: Uint8Array): Buffer => {
  const pk = blsPublicKeyFromPrivateKey(sk);
  return Buffer.from(sigs.Signature.toBytes(sigs.sign(sigs.hash(pk, DST_POP), sk)));
};

// A pairing check in JavaScript costs tens of milliseconds and genesis processing repeats the
// same 100+ checks; the result of this pure function is remembered for recent inputs.
const POP_CACHE_SIZE = 4096;
const popCache = new Map<string, boolean>();

const popCacheKey = (pk: Uint8Array, proof: Uint8Array): string => Buffer.concat([pk, proof]).toString('latin1');

const rememberPop = (pk: Uint8Array, proof: Uint8Array, valid: boolean): boolean => {
  if (popCache.size >= POP_CACHE_SIZE) deleteOldest(popCache);
  popCache.set(popCacheKey(pk, proof), valid);
  return valid;
};

export const blsPopVerify = (pk: Uint8Array, proof: Uint8Array): boolean => {
  if (!blsValidateKey(pk) || proof.length !== BLS_SIGNATURE_LENGTH) return false;
  const cached = popCache.get(popCacheKey(pk, proof));
  if (cached !== undefined) return cached;
  let valid: boolean;
  try {
    valid = sigs.verify(proof, sigs.hash(pk, DST_POP), pk);
  } catch {
    valid = false;
  }
  return rememberPop(pk, proof, valid);
};

/**
 * Results of blsPopVerify computed elsewhere in this process (worker threads running the same
 * function, e.g. for a genesis block's validators), remembered so later checks answer at once.
 */
export const rememberPopVerifications = (
  results: readonly { pk: Uint8Array; proof: Uint8Array; valid: boolean }[],
): void => {
  for (const { pk, proof, valid } of results) rememberPop(pk, proof, valid);
};

import { assertLength } from './bytes.js';
import { sha256 } from './hash.js';
import { sha256Each } from './sha256_x4.js';

export const ADDRESS_LENGTH = 20;
export const KLAYR32_PREFIX = 'kly';
export const KLAYR32_CHARSET = 'zxvcpmbn3465o978uyrtkqew2adsjhfg';
/** prefix (3) + 32 address characters + 6 checksum characters */
export const KLAYR32_ADDRESS_LENGTH = 41;

const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

const polymod = (values: readonly number[]): number => {
  let chk = 1;
  for (const value of values) {
    const top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >> i) & 1) chk ^= GENERATOR[i];
  }
  return chk;
};

const convertBits = (data: ArrayLike<number>, from: number, to: number): number[] => {
  const max = (1 << to) - 1;
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | data[i];
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  return out;
};

/** An ed25519 public key's length checked, as address derivation checks it. */
export const assertPublicKey = (publicKey: Uint8Array): Uint8Array => assertLength(publicKey, 32, 'publicKey');

export const addressFromPublicKey = (publicKey: Uint8Array): Buffer =>
  sha256(assertPublicKey(publicKey)).subarray(0, ADDRESS_LENGTH);

/** addressFromPublicKey of each key (a block's senders), hashed in a batch (sha256Each). */
export const addressesFromPublicKeys = (publicKeys: readonly Uint8Array[]): Buffer[] => {
  for (const key of publicKeys) assertPublicKey(key);
  return sha256Each(publicKeys).map((hash) => hash.subarray(0, ADDRESS_LENGTH));
};

export const addressToKlayr32 = (address: Uint8Array, prefix = KLAYR32_PREFIX): string => {
  assertLength(address, ADDRESS_LENGTH, 'address');
  const words = convertBits(address, 8, 5);
  const mod = polymod([...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  for (let p = 0; p < 6; p++) words.push((mod >> (5 * (5 - p))) & 31);
  let out = prefix;
  for (const w of words) out += KLAYR32_CHARSET[w];
  return out;
};

const CHAR_CODE_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < KLAYR32_CHARSET.length; i++) CHAR_CODE_VALUE[KLAYR32_CHARSET.charCodeAt(i)] = i;

/** GENERATOR terms XORed for each value of the checksum's top 5 bits: one lookup per character instead of 5 tests. */
const POLYMOD_TERMS = new Int32Array(32);
for (let top = 0; top < 32; top++) for (let i = 0; i < 5; i++) if ((top >> i) & 1) POLYMOD_TERMS[top] ^= GENERATOR[i];

/** The 5-bit values after the prefix (32 of the address, 6 of the checksum), reused by every parse: RPC params are parsed on every request. */
const scratch = new Uint8Array(KLAYR32_ADDRESS_LENGTH);

/**
 * Fills `scratch` with the 5-bit values after the prefix (address and checksum) and answers
 * undefined, or the reason the string is not a klayr32 address.
 */
const parseKlayr32 = (address: unknown, prefix: string): string | undefined => {
  if (typeof address !== 'string') return 'Address must be a string.';
  if (address.length !== KLAYR32_ADDRESS_LENGTH)
    return `Address length does not match requirements. Expected ${KLAYR32_ADDRESS_LENGTH} characters.`;
  if (!address.startsWith(prefix))
    return `Invalid address prefix. Actual prefix: ${address.slice(0, prefix.length)}, Expected prefix: ${prefix}`;
  let chk = 1;
  for (let i = prefix.length; i < address.length; i++) {
    const code = address.charCodeAt(i);
    const v = code < 128 ? (CHAR_CODE_VALUE[code] ?? -1) : -1;
    if (v < 0) return `Invalid character found in address. Only allow characters: '${KLAYR32_CHARSET}'.`;
    scratch[i - prefix.length] = v;
    chk = (((chk & 0x1ffffff) << 5) ^ v ^ (POLYMOD_TERMS[chk >>> 25] ?? 0)) | 0;
  }
  if (chk !== 1) return 'Invalid checksum for address.';
  return undefined;
};

/** Why a string is not a valid klayr32 address, or undefined when it is. */
export const validateKlayr32 = (address: unknown, prefix = KLAYR32_PREFIX): string | undefined =>
  parseKlayr32(address, prefix);

/** Bytes a klayr32 address of this prefix decodes to (20 with "kly"): its 5-bit values less the checksum's 6, whole bytes. */
const decodedLength = (prefix: string): number => Math.floor(((KLAYR32_ADDRESS_LENGTH - prefix.length - 6) * 5) / 8);

/** Decodes a klayr32 address into `out` at `at`; throws, writing nothing, when it is not one. */
export const klayr32ToAddressInto = (address: string, out: Uint8Array, at = 0, prefix = KLAYR32_PREFIX): void => {
  const problem = parseKlayr32(address, prefix);
  if (problem !== undefined) throw new Error(problem);
  const length = decodedLength(prefix);
  if (out.length < at + length) throw new Error(`klayr32 address: no room for ${length} bytes at ${at}`);
  // the values are the address bits, 5 at a time (160 bits after "kly"), then 6 of checksum; leftover bits are dropped
  const values = address.length - prefix.length - 6;
  let acc = 0;
  let bits = 0;
  let to = at;
  for (let i = 0; i < values; i++) {
    acc = ((acc << 5) | (scratch[i] ?? 0)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[to++] = (acc >> bits) & 0xff;
    }
  }
};

export const klayr32ToAddress = (address: string, prefix = KLAYR32_PREFIX): Buffer => {
  const out = Buffer.allocUnsafe(decodedLength(prefix));
  klayr32ToAddressInto(address, out, 0, prefix);
  return out;
};

export const klayr32FromPublicKey = (publicKey: Uint8Array, prefix = KLAYR32_PREFIX): string =>
  addressToKlayr32(addressFromPublicKey(publicKey), prefix);

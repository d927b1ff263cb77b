import { sha256, sha256Into } from '../crypto/hash.js';
import { sha256All } from '../crypto/sha256_x4.js';

export const STORE_PREFIX_LENGTH = 4;
export const SUBSTORE_PREFIX_LENGTH = 2;
/** Store prefix + substore prefix, kept as is in the state tree key. */
export const STATE_KEY_PREFIX_LENGTH = STORE_PREFIX_LENGTH + SUBSTORE_PREFIX_LENGTH;
/** State tree keys: 6 prefix bytes + sha256 of the rest of the store key. */
export const STATE_SMT_KEY_LENGTH = STATE_KEY_PREFIX_LENGTH + 32;

/** Prefixes are looked up for every store access, so each is computed once; the buffers returned are shared and must not be written to. */
// (written out rather than with lib/collections' getOrCreate, which measured slower on this path)
const memoized = <K>(compute: (key: K) => Buffer): ((key: K) => Buffer) => {
  const cache = new Map<K, Buffer>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
};

/** A module's 4-byte store prefix: sha256(name)[0..4] with the top bit cleared (Lisk SDK v6). */
export const computeStorePrefix = memoized((moduleName: string): Buffer => {
  const prefix = Buffer.from(sha256(Buffer.from(moduleName, 'utf8')).subarray(0, STORE_PREFIX_LENGTH));
  prefix[0] &= 0x7f;
  return prefix;
});

/** A substore's 2-byte prefix: its index with the 16 bits reversed (Lisk SDK v6). */
export const computeSubstorePrefix = memoized((index: number): Buffer => {
  if (!Number.isInteger(index) || index < 0 || index > 0xffff)
    throw new Error(`Substore index must be an integer in 0..65535, got ${index}`);
  let reversed = 0;
  for (let bit = 0; bit < 16; bit++) if ((index >> bit) & 1) reversed |= 1 << (15 - bit);
  const out = Buffer.alloc(SUBSTORE_PREFIX_LENGTH);
  out.writeUInt16BE(reversed);
  return out;
});

/** The key a state entry has in the state tree (lisk-db's state writer). */
export const stateSMTKey = (storeKey: Uint8Array): Buffer => {
  if (storeKey.length < STATE_KEY_PREFIX_LENGTH)
    throw new Error(`State keys are at least ${STATE_KEY_PREFIX_LENGTH} bytes (store and substore prefix)`);
  return Buffer.concat([
    storeKey.subarray(0, STATE_KEY_PREFIX_LENGTH),
    sha256(storeKey.subarray(STATE_KEY_PREFIX_LENGTH)),
  ]);
};

/** The value a state entry has in the state tree: the hash of the stored bytes. */
export const stateSMTValue = (value: Uint8Array): Buffer => sha256(value);

/**
 * The state tree's leaves of many entries (stateSMTKey, stateSMTValue each), written into one buffer
 * rather than three small ones per entry: a genesis block has 150,000 entries.
 */
export const stateSMTLeaves = (
  entries: readonly { key: Uint8Array; value: Uint8Array }[],
): { key: Buffer; value: Buffer }[] => {
  const leafBytes = STATE_SMT_KEY_LENGTH + 32;
  const out = Buffer.allocUnsafe(entries.length * leafBytes);
  return entries.map(({ key: storeKey, value }, i) => {
    if (storeKey.length < STATE_KEY_PREFIX_LENGTH)
      throw new Error(`State keys are at least ${STATE_KEY_PREFIX_LENGTH} bytes (store and substore prefix)`);
    const at = i * leafBytes;
    const key = out.subarray(at, at + STATE_SMT_KEY_LENGTH);
    key.set(storeKey.subarray(0, STATE_KEY_PREFIX_LENGTH));
    sha256Into(key.subarray(STATE_KEY_PREFIX_LENGTH), storeKey.subarray(STATE_KEY_PREFIX_LENGTH));
    const hash = out.subarray(at + STATE_SMT_KEY_LENGTH, at + leafBytes);
    sha256Into(hash, value);
    return { key, value: hash };
  });
};

/** stateSMTKey of each store key, their hashes computed in one batch (a block's changed keys). */
export const stateSMTKeys = (storeKeys: readonly Uint8Array[]): Buffer[] => {
  for (const key of storeKeys)
    if (key.length < STATE_KEY_PREFIX_LENGTH)
      throw new Error(`State keys are at least ${STATE_KEY_PREFIX_LENGTH} bytes (store and substore prefix)`);
  const hashes = sha256All(storeKeys.map((key) => key.subarray(STATE_KEY_PREFIX_LENGTH)));
  return storeKeys.map((key, i) => {
    const out = Buffer.allocUnsafe(STATE_SMT_KEY_LENGTH);
    out.set(key.subarray(0, STATE_KEY_PREFIX_LENGTH));
    out.set(hashes[i], STATE_KEY_PREFIX_LENGTH);
    return out;
  });
};

/** stateSMTValue of each value, in one batch. */
export const stateSMTValues = (values: readonly Uint8Array[]): Buffer[] => sha256All(values);

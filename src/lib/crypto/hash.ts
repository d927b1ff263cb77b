import { createHash, hash as oneShotHash } from 'node:crypto';
import sodium from 'sodium-native';

/** Below this size libsodium's SHA-256 beats node:crypto's one-shot hash (no OpenSSL call overhead); above it OpenSSL's SHA extensions win. */
const SMALL_INPUT_BYTES = 200;

/** SHA-256 of one input. */
export const sha256 = (data: Uint8Array): Buffer => {
  if (data.length >= SMALL_INPUT_BYTES) return oneShotHash('sha256', data, 'buffer') as unknown as Buffer;
  const out = Buffer.allocUnsafe(32);
  sodium.crypto_hash_sha256(out, data as Buffer);
  return out;
};

/** SHA-256 of the concatenation of several inputs. */
export const sha256Concat = (...parts: readonly Uint8Array[]): Buffer => {
  let total = 0;
  for (const p of parts) total += p.length;
  // one small copy and libsodium cost half of a node:crypto Hash object
  if (total < SMALL_INPUT_BYTES) return sha256(Buffer.concat(parts, total));
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** SHA-256 into a caller-owned output buffer (libsodium; no allocation), for tight loops. */
export const sha256Into = (out: Uint8Array, data: Uint8Array): void => {
  sodium.crypto_hash_sha256(out as Buffer, data as Buffer);
};

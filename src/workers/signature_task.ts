// ThreadPool task: the ed25519 checks of transactions' signatures, a batch at a time.
import {
  ED25519_PUBLIC_KEY_LENGTH as KEY,
  ED25519_SIGNATURE_LENGTH as SIGNATURE,
  verifyDetached,
} from '../lib/crypto/ed25519.js';
import type { SignaturePair } from '../lib/transaction/index.js';

const DIGEST = 32;
const PAIR = KEY + SIGNATURE;

/** One transaction's checks: the digest its signatures sign and its (key, signature) pairs in the auth module's order. */
export interface SignatureChecks {
  readonly digest: Uint8Array;
  readonly pairs: readonly SignaturePair[];
}

export interface SignatureBatch {
  /** Per transaction its digest, then its pairs (key, signature), end to end: one buffer crosses to the worker. */
  packed: Uint8Array;
  pairCounts: number[];
}

/** `packed` owns its memory (never a slice of Node's shared buffer pool), so its ArrayBuffer may be transferred. */
export const packBatch = (checks: readonly SignatureChecks[]): SignatureBatch => {
  const pairCounts = checks.map((c) => c.pairs.length);
  const packed = Buffer.allocUnsafeSlow(checks.length * DIGEST + pairCounts.reduce((a, b) => a + b, 0) * PAIR);
  let offset = 0;
  for (const { digest, pairs } of checks) {
    packed.set(digest, offset);
    offset += DIGEST;
    for (const { key, signature } of pairs) {
      packed.set(key, offset);
      packed.set(signature, offset + KEY);
      offset += PAIR;
    }
  }
  return { packed, pairCounts };
};

/** For each transaction: the index of its first pair that does not verify, -1 when all do. */
export const verifySignatureBatch = ({ packed, pairCounts }: SignatureBatch): number[] => {
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  let offset = 0;
  return pairCounts.map((count) => {
    const digest = bytes.subarray(offset, offset + DIGEST);
    const pairs = offset + DIGEST;
    offset = pairs + count * PAIR;
    for (let i = 0; i < count; i++) {
      const at = pairs + i * PAIR;
      if (!verifyDetached(digest, bytes.subarray(at + KEY, at + PAIR), bytes.subarray(at, at + KEY))) return i;
    }
    return -1;
  });
};

export default verifySignatureBatch;

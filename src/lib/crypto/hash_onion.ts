import { randomBytes } from 'node:crypto';
import { sha256, sha256Into } from './hash.js';
import { DEFAULT_HASH_ONION_COUNT, DEFAULT_HASH_ONION_DISTANCE } from './hash_onion_defaults.js';

export const HASH_ONION_SEED_LENGTH = 16;

/** A fresh 16-byte seed (sha256 of 64 random bytes, as @klayr/cryptography's generateHashOnionSeed). */
export const generateHashOnionSeed = (): Buffer => sha256(randomBytes(64)).subarray(0, HASH_ONION_SEED_LENGTH);

/**
 * A hash onion (LIP 0022): h0 = seed, h(i+1) = sha256(h(i))[0..16]; returns the checkpoints
 * h(count), h(count - distance), …, h(0) — the order @klayr/cryptography's hashOnion returns,
 * so a validator reveals from the end of the chain towards the seed.
 */
export const hashOnion = (
  seed: Uint8Array,
  count = DEFAULT_HASH_ONION_COUNT,
  distance = DEFAULT_HASH_ONION_DISTANCE,
  onProgress?: (done: number) => void,
): Buffer[] => {
  if (count < distance) throw new Error('Invalid count or distance. Count must be greater than distance');
  if (count % distance !== 0) throw new Error('Invalid count. Count must be multiple of distance');
  const checkpoints: Buffer[] = [Buffer.from(seed)];
  // two 32-byte buffers take turns: each step hashes the first half of one into the other,
  // so a step is one native call with no copy and no allocation
  const buffers = [Buffer.alloc(32), Buffer.alloc(32)] as const;
  const halves = [
    buffers[0].subarray(0, HASH_ONION_SEED_LENGTH),
    buffers[1].subarray(0, HASH_ONION_SEED_LENGTH),
  ] as const;
  halves[0].set(seed);
  for (let i = 1; i <= count; i++) {
    sha256Into(buffers[i & 1], halves[(i - 1) & 1]);
    if (i % distance === 0) {
      checkpoints.push(Buffer.from(halves[i & 1]));
      if (onProgress !== undefined && (i / distance) % 100 === 0) onProgress(i);
    }
  }
  return checkpoints.reverse();
};

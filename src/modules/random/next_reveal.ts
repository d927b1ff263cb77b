import { generateHashOnionSeed, hashOnion } from '../../lib/crypto/hash_onion.js';
import type { HashOnionStores } from './offchain.js';

/**
 * The seed reveal a validator's next block carries (Klayr's _getNextHashOnion): the next unused
 * hash of its onion, computed from the nearest checkpoint; without an onion, or with all of it
 * used, a random seed (such a block earns no reward).
 */
export const nextSeedReveal = (
  stores: HashOnionStores,
  address: Buffer,
  height: number,
  onExhausted?: () => void,
): { hash: Buffer; count: number } => {
  const onion = stores.getOnion(address);
  if (onion === undefined) return { hash: generateHashOnionSeed(), count: 0 };
  const used = stores.latestUsed(address, height);
  if (used === undefined) return { hash: onion.hashes[0], count: 0 };
  const count = used.count + 1;
  if (count > onion.count) {
    onExhausted?.();
    return { hash: generateHashOnionSeed(), count: used.count };
  }
  const afterCheckpoint = count % onion.distance;
  if (afterCheckpoint === 0) return { hash: onion.hashes[count / onion.distance], count };
  const checkpoint = onion.hashes[Math.ceil(count / onion.distance)];
  return { hash: hashOnion(checkpoint, onion.distance - afterCheckpoint, 1)[0], count };
};

// Piscina task: computes a hash onion's checkpoints off the main thread.
import { hashOnion } from '../lib/crypto/hash_onion.js';

export default ({ seed, count, distance }: { seed: Uint8Array; count: number; distance: number }): Buffer[] =>
  hashOnion(seed, count, distance);

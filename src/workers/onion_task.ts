// Piscina task: computes a hash onion's checkpoints off the main thread.
import { hashOnion } from '../lib/crypto/hash_onion.js';

export interface OnionRequest {
  seed: Uint8Array;
  count: number;
  distance: number;
}

export const computeOnion = ({ seed, count, distance }: OnionRequest): Buffer[] => hashOnion(seed, count, distance);

export default computeOnion;

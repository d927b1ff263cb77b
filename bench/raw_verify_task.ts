// Piscina task for the benches' baseline: bare ed25519 verifies of precomputed digests, nothing else.
import { verifyDetached } from '../src/lib/crypto/ed25519.js';

export interface RawVerifyBatch {
  digests: Uint8Array[];
  signatures: Uint8Array[];
  keys: Uint8Array[];
}

export default ({ digests, signatures, keys }: RawVerifyBatch): number => {
  let valid = 0;
  for (let i = 0; i < digests.length; i++) if (verifyDetached(digests[i], signatures[i], keys[i])) valid += 1;
  return valid;
};

// Piscina task: proofs of possession checked off the main thread (a pairing in JavaScript costs tens of milliseconds).
import { blsPopVerify } from '../lib/crypto/bls.js';

export interface PopItem {
  pk: Uint8Array;
  proof: Uint8Array;
}

export default (items: PopItem[]): boolean[] => items.map(({ pk, proof }) => blsPopVerify(pk, proof));

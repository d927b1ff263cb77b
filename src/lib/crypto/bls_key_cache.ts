import blst from '@chainsafe/blst';
import { deleteOldest } from '../collections.js';
import { aggregationBitsValid, selectSigners } from './aggregate.js';
import { blsFastAggregateVerify } from './bls.js';
import { sha256 } from './hash.js';
import { tagMessage } from './tags.js';

/** What an aggregate (certificate) signature check needs; keys and weights in aggregation-bit order. */
export interface WeightedAggregateRequest {
  /** Identifies the key set (the validators hash): parsed keys are cached under it. */
  keySetID: Uint8Array;
  publicKeys: readonly Uint8Array[];
  weights: readonly bigint[];
  threshold: bigint;
  aggregationBits: Uint8Array;
  signature: Uint8Array;
  tag: string;
  chainID: Uint8Array;
  message: Uint8Array;
}

/**
 * Weighted aggregate BLS verification that parses and subgroup-checks each validator set's
 * public keys once: later checks against the same set (every certificate of a round) reuse them.
 */
export class BLSKeyCache {
  readonly #sets = new Map<string, blst.PublicKey[]>();

  constructor(private readonly capacity = 8) {}

  #keys(id: Uint8Array, publicKeys: readonly Uint8Array[]): blst.PublicKey[] {
    const key = Buffer.from(id).toString('hex');
    let parsed = this.#sets.get(key);
    if (parsed === undefined || parsed.length !== publicKeys.length) {
      parsed = publicKeys.map((k) => blst.PublicKey.fromBytes(k, true));
      if (this.#sets.size >= this.capacity) deleteOldest(this.#sets);
      this.#sets.set(key, parsed);
    }
    return parsed;
  }

  verifyWeighted(request: WeightedAggregateRequest): boolean {
    const { publicKeys, aggregationBits } = request;
    if (!aggregationBitsValid(publicKeys.length, aggregationBits)) return false;
    const weight = selectSigners(request.weights, aggregationBits).reduce((sum, w) => sum + BigInt(w), 0n);
    if (weight < request.threshold) return false;
    let keys: blst.PublicKey[];
    try {
      keys = this.#keys(request.keySetID, publicKeys);
    } catch {
      return false;
    }
    return blsFastAggregateVerify(
      selectSigners(keys, aggregationBits),
      sha256(tagMessage(request.tag, request.chainID, request.message)),
      request.signature,
    );
  }
}

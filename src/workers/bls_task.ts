// Piscina task: weighted aggregate BLS verification with a per-thread cache of parsed validator keys.
import { BLSKeyCache } from '../lib/crypto/bls_key_cache.js';
import type { WeightedAggregateRequest } from '../lib/crypto/bls_key_cache.js';

const cache = new BLSKeyCache();

export const verifyWeightedAggregate = (request: WeightedAggregateRequest): boolean => cache.verifyWeighted(request);

export default verifyWeightedAggregate;

// Piscina task module of the `bls` pool: each named export is one kind of check; every thread caches parsed validator keys.

import type { WeightedAggregateRequest } from '../lib/crypto/bls_key_cache.js';
import { BLSKeyCache } from '../lib/crypto/bls_key_cache.js';
import type { PopItem, SingleSignatureRequest } from '../lib/crypto/bls_requests.js';
import { verifyProofsOfPossession, verifySingleSignatures } from '../lib/crypto/bls_requests.js';

const cache = new BLSKeyCache();

export const verifyWeightedAggregate = (request: WeightedAggregateRequest): boolean => cache.verifyWeighted(request);

export const verifyWeightedAggregates = (requests: WeightedAggregateRequest[]): boolean[] =>
  requests.map((r) => cache.verifyWeighted(r));

export const verifySingles = (requests: SingleSignatureRequest[]): boolean[] => verifySingleSignatures(requests);

export const verifyPops = (items: PopItem[]): boolean[] => verifyProofsOfPossession(items);

export default verifyWeightedAggregate;

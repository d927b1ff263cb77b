import { computeStorePrefix } from '../../lib/state/keys.js';
import { arrayOf, booleanType, endpointSchema, hex, hexOfLength, klayr32, objectSchema, storeMetadata, uint32Integer } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { MAX_HASH_ONION_COUNT } from './onion_endpoint.js';
import { MODULE_NAME, seedRevealSchema } from './stores.js';

const setSeedRequest = {
  $id: 'klayr/random/setSeedRequestSchema',
  type: 'object',
  title: 'Random setSeed request',
  required: ['address'],
  properties: {
    address: klayr32,
    seed: hexOfLength(32),
    count: { type: 'integer', minimum: 1, maximum: MAX_HASH_ONION_COUNT },
    distance: { type: 'integer', minimum: 1 },
    hashes: { ...arrayOf(hexOfLength(32)), minItems: 1 },
  },
} as const;
const addressRequest = endpointSchema('klayr/random/addressSchema', { address: klayr32 }, ['address']);

export const randomMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [storeMetadata(computeStorePrefix(MODULE_NAME), 0, seedRevealSchema)],
  endpoints: [
    {
      name: 'isSeedRevealValid',
      request: endpointSchema('/modules/random/endpoint/isSeedRevealRequest', { generatorAddress: klayr32, seedReveal: hex }, ['generatorAddress', 'seedReveal']),
      response: endpointSchema('/modules/random/endpoint/isSeedRevealResponse', { valid: booleanType }, ['valid']),
    },
    { name: 'setHashOnion', request: setSeedRequest },
    // Klayr publishes the setHashOnion request schema as this endpoint's response
    { name: 'getHashOnionSeeds', response: setSeedRequest },
    { name: 'hasHashOnion', request: addressRequest, response: endpointSchema('klayr/random/hasHashOnionResponseSchema', { hasSeed: booleanType, remaining: uint32Integer }, ['hasSeed', 'remaining']) },
    {
      name: 'getHashOnionUsage',
      request: addressRequest,
      response: endpointSchema(
        'klayr/random/getHashOnionUsageResponse',
        { usedHashOnions: arrayOf(objectSchema({ count: uint32Integer, height: uint32Integer }, ['count', 'height'])), seed: hex },
        ['usedHashOnions', 'seed'],
      ),
    },
  ],
  unpublishedEndpoints: ['setHashOnionUsage'],
};

import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { klayr32ToAddress } from '../../lib/crypto/address.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import {
  arrayOf,
  booleanType,
  endpointSchema,
  hex,
  hexOfLength,
  klayr32,
  objectSchema,
  uint32Integer,
} from '../../lib/endpoint/metadata.js';
import { hexBytes } from '../../lib/endpoint/params.js';
import { isSeedValidInput, readValidatorReveals } from './method.js';
import { MAX_HASH_ONION_COUNT } from './onion_endpoint.js';

const SEED_REVEAL_LENGTH = 16;

/** The random module's on-chain reader (the hash onion endpoints belong to the generator's off-chain store). */
export const randomEndpoints = (state: () => StoreAccess): Endpoints => ({
  isSeedRevealValid: {
    params: {
      type: 'object',
      required: ['generatorAddress', 'seedReveal'],
      properties: { generatorAddress: { type: 'string', format: 'klayr32' }, seedReveal: hexBytes(SEED_REVEAL_LENGTH) },
    },
    handler: ({ params }) => ({
      valid: isSeedValidInput(
        klayr32ToAddress(params.generatorAddress as string),
        Buffer.from(params.seedReveal as string, 'hex'),
        readValidatorReveals(state()),
        false,
      ),
    }),
  },
});

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

/** The random endpoints (the on-chain reader and the hash onion ones) as Klayr's metadata publishes them. */
export const RANDOM_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'isSeedRevealValid',
      request: endpointSchema(
        '/modules/random/endpoint/isSeedRevealRequest',
        { generatorAddress: klayr32, seedReveal: hex },
        ['generatorAddress', 'seedReveal'],
      ),
      response: endpointSchema('/modules/random/endpoint/isSeedRevealResponse', { valid: booleanType }, ['valid']),
    },
    { name: 'setHashOnion', request: setSeedRequest },
    // Klayr publishes the setHashOnion request schema as this endpoint's response
    { name: 'getHashOnionSeeds', response: setSeedRequest },
    {
      name: 'hasHashOnion',
      request: addressRequest,
      response: endpointSchema(
        'klayr/random/hasHashOnionResponseSchema',
        { hasSeed: booleanType, remaining: uint32Integer },
        ['hasSeed', 'remaining'],
      ),
    },
    {
      name: 'getHashOnionUsage',
      request: addressRequest,
      response: endpointSchema(
        'klayr/random/getHashOnionUsageResponse',
        {
          usedHashOnions: arrayOf(objectSchema({ count: uint32Integer, height: uint32Integer }, ['count', 'height'])),
          seed: hex,
        },
        ['usedHashOnions', 'seed'],
      ),
    },
  ],
  unpublished: ['setHashOnionUsage'],
};

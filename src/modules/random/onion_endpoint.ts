import type { OnionGenerator } from '../../engine/pools/onion_generator.js';
import { databaseKeyNotFound } from '../../lib/chain/klayr_not_found.js';
import { addressToKlayr32, klayr32ToAddress } from '../../lib/crypto/address.js';
import { sha256 } from '../../lib/crypto/hash.js';
import { generateHashOnionSeed } from '../../lib/crypto/hash_onion.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import { hexBytes } from '../../lib/endpoint/params.js';
import { required } from '../../lib/required.js';
import { computeStorePrefix } from '../../lib/state/keys.js';
import type { HashOnionStores, UsedHashOnion } from './offchain.js';

/** Klayr's setHashOnion default count (its MAX_HASH_COMPUTATION) and distance. */
export const DEFAULT_SET_HASH_ONION_COUNT = 10000;
export const DEFAULT_SET_HASH_ONION_DISTANCE = 1000;
export const MAX_HASH_ONION_COUNT = 10_000_000;

const addressParams = {
  type: 'object',
  required: ['address'],
  properties: { address: { type: 'string', format: 'klayr32' } },
} as const;
const hex16 = hexBytes(16);

/** An onion's seed, its last checkpoint (setHashOnion stores at least one). */
const onionSeed = (onion: { hashes: readonly Buffer[] }): string =>
  required(onion.hashes.at(-1), 'The seed of a stored hash onion').toString('hex');

/**
 * The random module's hash onion endpoints (setters and readers) over the node's off-chain stores.
 * Onions are computed in the `onion` worker pool, so long ones never block RPC or generation.
 */
/**
 * The key Klayr Core reads a validator's hash onion under, in its module database: @klayr/chain StateStore's prefix
 * 0x0a, the random module's store prefix, HashOnionStore's substore prefix (sha256('hashOnion' || version 0)), the
 * address. Its error names it when there is none (lisk-db Database's NotFoundError).
 */
const HASH_ONION_KEY_PREFIX = Buffer.concat([
  Buffer.from([0x0a]),
  computeStorePrefix('random'),
  sha256(Buffer.concat([Buffer.from('hashOnion'), Buffer.alloc(2)])).subarray(0, 2),
]);
const noHashOnion = (address: Buffer): Error => databaseKeyNotFound(Buffer.concat([HASH_ONION_KEY_PREFIX, address]));

export const hashOnionEndpoints = (
  stores: HashOnionStores,
  onions: OnionGenerator,
): Record<string, EndpointDefinition> => ({
  setHashOnion: {
    description:
      'Stores a hash onion for a validator: from a seed (or a fresh one), count and distance, or given as its checkpoints.',
    params: {
      type: 'object',
      required: ['address'],
      properties: {
        address: { type: 'string', format: 'klayr32' },
        seed: hex16,
        count: { type: 'integer', minimum: 1, maximum: MAX_HASH_ONION_COUNT },
        distance: { type: 'integer', minimum: 1, maximum: MAX_HASH_ONION_COUNT },
        hashes: { type: 'array', minItems: 1, items: hex16 },
      },
    },
    handler: async ({ params }) => {
      const address = klayr32ToAddress(params.address as string);
      const count = (params.count as number | undefined) ?? DEFAULT_SET_HASH_ONION_COUNT;
      const distance = (params.distance as number | undefined) ?? DEFAULT_SET_HASH_ONION_DISTANCE;
      if (distance > count) throw new Error('Invalid count or distance. Count must be greater than distance.');
      if (count % distance !== 0) throw new Error('Invalid count. Count must be multiple of distance.');
      let hashes: Buffer[];
      if (params.hashes !== undefined) {
        if (params.count === undefined || params.distance === undefined)
          throw new Error('Hashes must be provided with count and distance.');
        const expected = count / distance + 1;
        if ((params.hashes as string[]).length !== expected)
          throw new Error(`Invalid length of hashes. hashes must have ${expected} elements.`);
        hashes = (params.hashes as string[]).map((h) => Buffer.from(h, 'hex'));
      } else {
        const seed = params.seed === undefined ? generateHashOnionSeed() : Buffer.from(params.seed as string, 'hex');
        hashes = await onions.generate({ seed, count, distance });
      }
      stores.setOnion(address, { count, distance, hashes });
      stores.setUsed(address, [{ count: 0, height: 0 }]);
      return {};
    },
  },
  getHashOnionSeeds: {
    description:
      "The seed, count and distance of the address's hash onion (the spec's request), or of every stored one without an address (Klayr Core lists all in either case).",
    params: { type: 'object', properties: { address: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) => ({
      seeds: stores
        .allOnions()
        .filter(({ address }) => params.address === undefined || addressToKlayr32(address) === params.address)
        .map(({ address, onion }) => ({
          address: addressToKlayr32(address),
          seed: onionSeed(onion),
          count: onion.count,
          distance: onion.distance,
        })),
    }),
  },
  hasHashOnion: {
    params: addressParams,
    handler: ({ params }) => {
      const address = klayr32ToAddress(params.address as string);
      const onion = stores.getOnion(address);
      if (onion === undefined) return { hasSeed: false, remaining: 0 };
      const used = stores.latestUsed(address);
      if (used === undefined) return { hasSeed: true, remaining: onion.count };
      if (used.count === onion.count) return { hasSeed: false, remaining: 0 };
      return { hasSeed: true, remaining: onion.count - used.count };
    },
  },
  getHashOnionUsage: {
    params: addressParams,
    handler: ({ params }) => {
      const address = klayr32ToAddress(params.address as string);
      const onion = stores.getOnion(address);
      if (onion === undefined) throw noHashOnion(address);
      return {
        usedHashOnions: stores.getUsed(address) ?? [{ count: 0, height: 0 }],
        seed: onionSeed(onion),
      };
    },
  },
  setHashOnionUsage: {
    params: {
      type: 'object',
      required: ['address', 'usedHashOnions'],
      properties: {
        address: { type: 'string', format: 'klayr32' },
        usedHashOnions: {
          type: 'array',
          items: {
            type: 'object',
            required: ['count', 'height'],
            properties: { count: { type: 'integer', format: 'uint32' }, height: { type: 'integer', format: 'uint32' } },
          },
        },
      },
    },
    handler: ({ params }) => {
      stores.setUsed(klayr32ToAddress(params.address as string), params.usedHashOnions as UsedHashOnion[]);
      return {};
    },
  },
});

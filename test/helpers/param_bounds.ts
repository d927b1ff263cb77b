/**
 * What the protocol says each RPC parameter is, independent of the schemas under test: the
 * byte lengths of hex fields and the ranges of integers, by field name (or `method.field` where
 * one name means different things). A hex field missing here fails the bad-input test: add it.
 */

export type Range = readonly [min: number, max: number];

const exact = (bytes: number): Range => [bytes, bytes];

const HEX_BYTES: Readonly<Record<string, Range>> = {
  chainID: exact(4),
  escrowChainID: exact(4),
  tokenID: exact(8),
  seed: exact(16),
  seedReveal: exact(16),
  hashes: exact(16),
  id: exact(32),
  ids: exact(32),
  publicKey: exact(32),
  generatorKey: exact(32),
  generatorPrivateKey: exact(64),
  blsKey: exact(48),
  blsPrivateKey: exact(32),
  proofOfPossession: exact(96),
  // an optional key that did not sign has an empty signature
  signature: [0, 64],
  // event tree key: topic hash (8) and indexes (4)
  queries: exact(12),
  // store prefix (4) and substore prefix (2), then the key
  queryKeys: [6, 256],
  transaction: [1, 30 * 1024],
  header1: [1, 4096],
  header2: [1, 4096],
  ciphertext: [1, 1024],
  mac: exact(32),
  salt: [1, 64],
  iv: [1, 32],
  tag: exact(16),
};

const UINT32: Range = [0, 2 ** 32 - 1];

const INTEGERS: Readonly<Record<string, Range>> = {
  // Klayr: int32, -1 for all validators
  limit: [-1, 2 ** 31 - 1],
  'random_setHashOnion.count': [1, 10_000_000],
  'random_setHashOnion.distance': [1, 10_000_000],
};

const lookup = <T>(table: Readonly<Record<string, T>>, method: string, name: string): T | undefined =>
  table[`${method}.${name}`] ?? table[name];

/** The byte range of a hex field, or undefined for a field that is not hex. */
export const hexBytes = (method: string, name: string): Range | undefined => lookup(HEX_BYTES, method, name);

/** The range of an integer field: uint32 unless the protocol says otherwise. */
export const integerRange = (method: string, name: string): Range => lookup(INTEGERS, method, name) ?? UINT32;

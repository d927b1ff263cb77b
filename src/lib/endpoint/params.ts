import type { SchemaProperty } from '../codec/index.js';
import { MAX_UINT32 } from '../codec/varint.js';

/**
 * Schema pieces for RPC params. The registry compiles params strictly: `format: "hex"` is
 * lowercase with whole bytes, and objects refuse unknown properties; these pieces add the length.
 */

/** Between `min` and `max` bytes as hex, for encodings of variable length. */
export const hexBetween = (min: number, max: number) =>
  ({ type: 'string', format: 'hex', minLength: min * 2, maxLength: max * 2 }) as const;

/** Exactly `bytes` bytes as hex (chain ID 4, token ID 8, seed 16, ID/hash/Ed25519 key 32, BLS key 48, Ed25519 signature 64, BLS signature 96). */
export const hexBytes = (bytes: number) => hexBetween(bytes, bytes);

/** Heights, counts, timestamps: Klayr's uint32. */
export const uint32 = { type: 'integer', minimum: 0, maximum: MAX_UINT32 } as const;

/** No block holds more transaction bytes than genesis.maxTransactionsSize, at most 30 KiB in Klayr's config schema. */
export const MAX_TRANSACTION_BYTES = 30 * 1024;
export const transactionHex = hexBetween(1, MAX_TRANSACTION_BYTES);

/** A block header is about 450 bytes plus its aggregation bits (one bit per validator): 4 KiB is ample. */
export const MAX_BLOCK_HEADER_BYTES = 4 * 1024;

/** The params schema of a method that takes none: an empty object (the registry refuses any property). */
export const NO_PARAMS: SchemaProperty = { type: 'object', properties: {} };

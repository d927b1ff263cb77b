import { sha256, sha256Concat } from '../crypto/hash.js';
import { sha256All } from '../crypto/sha256_x4.js';

export const EMPTY_HASH = sha256(Buffer.alloc(0));
const LEAF_PREFIX = Buffer.from([0x00]);
const BRANCH_PREFIX = Buffer.from([0x01]);

/** LIP 0031 leaf hash: sha256(0x00 || value). */
export const leafHash = (value: Uint8Array): Buffer => sha256Concat(LEAF_PREFIX, value);

/** LIP 0031 branch hash: sha256(0x01 || left || right). */
export const branchHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256Concat(BRANCH_PREFIX, left, right);

/**
 * From this many hashes of a tree's layer on, one batch (sha256All, several messages per SHA-NI pass) beats one
 * libsodium call each (a block's 100 transaction IDs: about 3x).
 */
const BATCH_HASHES = 8;

/** leafHash of each value. */
export const leafHashes = (values: readonly Uint8Array[]): Buffer[] =>
  values.length < BATCH_HASHES
    ? values.map((v) => leafHash(v))
    : sha256All(values.map((v) => Buffer.concat([LEAF_PREFIX, v])));

/** branchHash of each (left, right) pair. */
export const branchHashes = (pairs: readonly (readonly [Uint8Array, Uint8Array])[]): Buffer[] =>
  pairs.length < BATCH_HASHES
    ? pairs.map(([left, right]) => branchHash(left, right))
    : sha256All(pairs.map(([left, right]) => Buffer.concat([BRANCH_PREFIX, left, right])));

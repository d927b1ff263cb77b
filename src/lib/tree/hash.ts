import { sha256, sha256Concat } from '../crypto/hash.js';
import { sha256Each } from '../crypto/sha256_x4.js';

export const EMPTY_HASH = sha256(Buffer.alloc(0));
const LEAF_PREFIX = Buffer.from([0x00]);
const BRANCH_PREFIX = Buffer.from([0x01]);

/** LIP 0031 leaf hash: sha256(0x00 || value). */
export const leafHash = (value: Uint8Array): Buffer => sha256Concat(LEAF_PREFIX, value);

/** LIP 0031 branch hash: sha256(0x01 || left || right). */
export const branchHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256Concat(BRANCH_PREFIX, left, right);

/** leafHash of each value, hashed in a batch (sha256Each). */
export const leafHashes = (values: readonly Uint8Array[]): Buffer[] =>
  sha256Each(values.map((v) => Buffer.concat([LEAF_PREFIX, v])));

/** branchHash of each (left, right) pair, hashed in a batch (sha256Each). */
export const branchHashes = (pairs: readonly (readonly [Uint8Array, Uint8Array])[]): Buffer[] =>
  sha256Each(pairs.map(([left, right]) => Buffer.concat([BRANCH_PREFIX, left, right])));

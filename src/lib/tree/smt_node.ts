import { createHash } from 'node:crypto';
import sodium from 'sodium-native';
import { EMPTY_HASH } from './hash.js';

/** LIP 0039 hash prefixes. */
export const LEAF_PREFIX = Buffer.from('LSK_SMTL_', 'ascii');
export const BRANCH_PREFIX = Buffer.from('LSK_SMTB_', 'ascii');
const NODE_LEAF = 0;
export const NODE_BRANCH = 1;
/** A branch's stored form: its kind and its two children's hashes. */
export const BRANCH_DATA_BYTES = 65;

export type SMTNode =
  | { readonly kind: 'empty'; readonly hash: Buffer }
  | { readonly kind: 'leaf'; readonly hash: Buffer; readonly key: Buffer; readonly value: Buffer }
  | { readonly kind: 'branch'; readonly hash: Buffer; readonly left: Buffer; readonly right: Buffer };

export const EMPTY_NODE: SMTNode = { kind: 'empty', hash: EMPTY_HASH };

// Branch inputs have a fixed size: hash them from one scratch buffer without allocating.
const branchInput = Buffer.alloc(BRANCH_PREFIX.length + 64);
BRANCH_PREFIX.copy(branchInput);

export const smtBranchHash = (left: Uint8Array, right: Uint8Array): Buffer => {
  branchInput.set(left, BRANCH_PREFIX.length);
  branchInput.set(right, BRANCH_PREFIX.length + 32);
  const out = Buffer.allocUnsafe(32);
  sodium.crypto_hash_sha256(out, branchInput);
  return out;
};

const leafInput = Buffer.alloc(256);
LEAF_PREFIX.copy(leafInput);

/** The leaf hash written into `out` (32 bytes). */
export const smtLeafHashInto = (out: Uint8Array, key: Uint8Array, value: Uint8Array): void => {
  const length = LEAF_PREFIX.length + key.length + value.length;
  if (length > leafInput.length) {
    out.set(createHash('sha256').update(LEAF_PREFIX).update(key).update(value).digest());
    return;
  }
  leafInput.set(key, LEAF_PREFIX.length);
  leafInput.set(value, LEAF_PREFIX.length + key.length);
  sodium.crypto_hash_sha256(out as Buffer, leafInput.subarray(0, length));
};

export const smtLeafHash = (key: Uint8Array, value: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(32);
  smtLeafHashInto(out, key, value);
  return out;
};

export const leafNode = (key: Buffer, value: Buffer): SMTNode => ({
  kind: 'leaf',
  key,
  value,
  hash: smtLeafHash(key, value),
});
export const branchNode = (left: Buffer, right: Buffer): SMTNode => ({
  kind: 'branch',
  left,
  right,
  hash: smtBranchHash(left, right),
});

/** A leaf's stored form `0x00 || key || value` written at `at`; returns its length. */
export const encodeLeafInto = (out: Uint8Array, at: number, key: Uint8Array, value: Uint8Array): number => {
  out[at] = NODE_LEAF;
  // byte loops: the keys and values are a few dozen bytes, and a tree built from scratch writes 150,000
  const keyAt = at + 1;
  for (let i = 0; i < key.length; i++) out[keyAt + i] = key[i];
  const valueAt = keyAt + key.length;
  for (let i = 0; i < value.length; i++) out[valueAt + i] = value[i];
  return 1 + key.length + value.length;
};

export const encodeLeaf = (key: Uint8Array, value: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(1 + key.length + value.length);
  encodeLeafInto(out, 0, key, value);
  return out;
};

/** Stored form: leaf `0x00 || key || value`, branch `0x01 || left || right`. */
export const encodeNode = (node: SMTNode): Buffer => {
  if (node.kind === 'leaf') return encodeLeaf(node.key, node.value);
  if (node.kind === 'branch') {
    const out = Buffer.allocUnsafe(BRANCH_DATA_BYTES);
    out[0] = NODE_BRANCH;
    out.set(node.left, 1);
    out.set(node.right, 33);
    return out;
  }
  throw new Error('The empty node is never stored');
};

export const decodeNode = (hash: Buffer, data: Buffer, keyLength: number): SMTNode => {
  if (data[0] === NODE_LEAF && data.length > 1 + keyLength) {
    return { kind: 'leaf', hash, key: data.subarray(1, 1 + keyLength), value: data.subarray(1 + keyLength) };
  }
  if (data[0] === NODE_BRANCH && data.length === BRANCH_DATA_BYTES)
    return { kind: 'branch', hash, left: data.subarray(1, 33), right: data.subarray(33) };
  throw new Error(`Corrupt sparse Merkle tree node ${hash.toString('hex')}`);
};

/** Bit i of a key, most significant bit of byte 0 first. */
export const keyBit = (key: Uint8Array, i: number): number => (key[i >> 3] >> (7 - (i & 7))) & 1;

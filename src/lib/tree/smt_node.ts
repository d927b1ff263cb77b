import { createHash } from 'node:crypto';
import sodium from 'sodium-native';
import { EMPTY_HASH } from './hash.js';

/** LIP 0039 hash prefixes. */
export const LEAF_PREFIX = Buffer.from('LSK_SMTL_', 'ascii');
export const BRANCH_PREFIX = Buffer.from('LSK_SMTB_', 'ascii');
const NODE_LEAF = 0;
export const NODE_BRANCH = 1;
const HASH_BYTES = 32;
/** A node's version: the uint32 BE that precedes its hash in its reference (the height of the commit that wrote it). */
export const VERSION_BYTES = 4;
/**
 * A stored node's reference, its key in storage: `version || hash`. Nodes written by one commit share the
 * version, so they sit side by side in a store ordered by key, where keys by hash alone would scatter them
 * over the whole store. The version is not part of the tree: a node's hash and content are the protocol's.
 */
export const NODE_REF_BYTES = VERSION_BYTES + HASH_BYTES;
/** A branch's stored form: its kind and its two children's references. */
export const BRANCH_DATA_BYTES = 1 + 2 * NODE_REF_BYTES;

/** The reference of the node `hash` written at `version`. */
export const nodeRef = (version: number, hash: Uint8Array): Buffer => {
  const ref = Buffer.allocUnsafe(NODE_REF_BYTES);
  ref.writeUInt32BE(version, 0);
  ref.set(hash, VERSION_BYTES);
  return ref;
};

/** The hash a reference names; a bare 32-byte hash names itself. */
export const refHash = (ref: Buffer): Buffer => (ref.length === HASH_BYTES ? ref : ref.subarray(VERSION_BYTES));

/** A reference as given, or a bare hash as the reference of version 0 (in-memory stores ignore versions). */
export const asNodeRef = (refOrHash: Buffer): Buffer =>
  refOrHash.length === HASH_BYTES ? nodeRef(0, refOrHash) : refOrHash;

/** `ref` (the node's storage key) is what its parent stores: its version and hash. */
export type SMTNode =
  | { readonly kind: 'empty'; readonly hash: Buffer; readonly ref: Buffer }
  | { readonly kind: 'leaf'; readonly hash: Buffer; readonly ref: Buffer; readonly key: Buffer; readonly value: Buffer }
  | {
      readonly kind: 'branch';
      readonly hash: Buffer;
      readonly ref: Buffer;
      readonly left: Buffer;
      readonly right: Buffer;
    };

/** The empty tree's root reference (the empty subtree is never stored: its version is always 0). */
export const EMPTY_ROOT_REF = nodeRef(0, EMPTY_HASH);
export const EMPTY_NODE: SMTNode = { kind: 'empty', hash: EMPTY_HASH, ref: EMPTY_ROOT_REF };

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

/** A branch's stored form `0x01 || left ref || right ref`. */
export const encodeBranch = (left: Uint8Array, right: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(BRANCH_DATA_BYTES);
  out[0] = NODE_BRANCH;
  out.set(left, 1);
  out.set(right, 1 + NODE_REF_BYTES);
  return out;
};

/** The node stored under `ref`: a leaf `0x00 || key || value` or a branch `0x01 || left ref || right ref`. */
export const decodeNode = (ref: Buffer, data: Buffer, keyLength: number): SMTNode => {
  const hash = refHash(ref);
  if (data[0] === NODE_LEAF && data.length > 1 + keyLength) {
    return { kind: 'leaf', hash, ref, key: data.subarray(1, 1 + keyLength), value: data.subarray(1 + keyLength) };
  }
  if (data[0] === NODE_BRANCH && data.length === BRANCH_DATA_BYTES)
    return {
      kind: 'branch',
      hash,
      ref,
      left: data.subarray(1, 1 + NODE_REF_BYTES),
      right: data.subarray(1 + NODE_REF_BYTES),
    };
  throw new Error(`Corrupt sparse Merkle tree node ${hash.toString('hex')} (version ${ref.readUInt32BE(0)})`);
};

/** Bit i of a key, most significant bit of byte 0 first. */
export const keyBit = (key: Uint8Array, i: number): number => (key[i >> 3] >> (7 - (i & 7))) & 1;

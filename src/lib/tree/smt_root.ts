import { PAIR_HASHER_RESERVED_BYTES, PAIR_JOB_BYTES, Sha256PairHasher } from '../crypto/sha256_x4.js';
import { EMPTY_HASH } from './hash.js';
import { BRANCH_PREFIX, keyBit, smtLeafHash, smtLeafHashInto } from './smt_node.js';

const SLOT = 32;
/** The empty subtree's hash lives in the first slot; node i's hash in slot i + 1. */
const EMPTY_SLOT = PAIR_HASHER_RESERVED_BYTES;
const EMPTY_CHILD = -1;

let hasher: Sha256PairHasher | undefined;
const branchHasher = (): Sha256PairHasher => {
  if (hasher === undefined) {
    hasher = new Sha256PairHasher(BRANCH_PREFIX);
    hasher.reserve(EMPTY_SLOT + SLOT);
    hasher.heap.set(EMPTY_HASH, EMPTY_SLOT);
  }
  return hasher;
};

const slotOf = (node: number): number => (node === EMPTY_CHILD ? EMPTY_SLOT : EMPTY_SLOT + SLOT * (node + 1));

/** Number of leading bits two keys of equal length share. */
const sharedBits = (a: Uint8Array, b: Uint8Array): number => {
  for (let i = 0; i < a.length; i++) {
    const diff = a[i] ^ b[i];
    if (diff !== 0) return i * 8 + Math.clz32(diff) - 24;
  }
  return a.length * 8;
};

/** The shape of the tree: leaves (entry index per node) and branches (depth, children), numbered as made. */
class TreeShape {
  readonly leafEntry: number[] = [];
  readonly leafNode: number[] = [];
  readonly branchDepth: number[] = [];
  readonly branchLeft: number[] = [];
  readonly branchRight: number[] = [];
  readonly branchNode: number[] = [];
  nodes = 0;
  maxDepth = 0;

  constructor(private readonly keys: readonly Uint8Array[]) {}

  #leaf(entry: number): number {
    this.leafEntry.push(entry);
    this.leafNode.push(this.nodes);
    return this.nodes++;
  }

  #branch(depth: number, left: number, right: number): number {
    this.branchDepth.push(depth);
    this.branchLeft.push(left);
    this.branchRight.push(right);
    this.branchNode.push(this.nodes);
    if (depth > this.maxDepth) this.maxDepth = depth;
    return this.nodes++;
  }

  /**
   * The subtree of keys [lo, hi) (sorted, sharing their first `depth` bits) hanging at `depth`: a leaf
   * when it holds one key, else the branch where the keys part, under a chain of branches with one
   * empty child up to `depth`.
   */
  build(lo: number, hi: number, depth: number): number {
    if (hi - lo === 1) return this.#leaf(lo);
    const { keys } = this;
    const parting = sharedBits(keys[lo], keys[hi - 1]);
    let split = lo + 1;
    let end = hi - 1;
    while (split < end) {
      const mid = (split + end) >>> 1;
      if (keyBit(keys[mid], parting) === 0) split = mid + 1;
      else end = mid;
    }
    let node = this.#branch(parting, this.build(lo, split, parting + 1), this.build(split, hi, parting + 1));
    for (let d = parting - 1; d >= depth; d--)
      node = keyBit(keys[lo], d) === 0 ? this.#branch(d, node, EMPTY_CHILD) : this.#branch(d, EMPTY_CHILD, node);
    return node;
  }
}

/**
 * The root of a sparse Merkle tree holding exactly `entries` (keys of equal length, unique), as LIP 0039
 * builds it: a leaf sits where its subtree holds nothing else, a branch hashes its two subtrees (an empty
 * one is the empty hash). Equals `update(EMPTY_HASH, entries).root` without storing nodes (event roots).
 *
 * The shape is laid out first; then every branch at one depth is independent of the others, so the
 * branches are hashed depth by depth, deepest first, four at a time (sha256_x4.ts), each hash written
 * into a slot of the hasher's memory: no allocation per node.
 */
export const smtRootOf = (entries: readonly { key: Buffer; value: Buffer }[]): Buffer => {
  if (entries.length === 0) return EMPTY_HASH;
  const keyLength = entries[0].key.length;
  for (const e of entries)
    if (e.key.length !== keyLength) throw new Error('Sparse Merkle tree keys must all have the same length');
  // latin1 strings order as their bytes do and compare several times faster than Buffers
  const byKey = entries.map((e) => ({ order: e.key.toString('latin1'), entry: e }));
  byKey.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  for (let i = 1; i < byKey.length; i++)
    if (byKey[i - 1].order === byKey[i].order) throw new Error('Duplicate key in SMT entries');
  const sorted = byKey.map((e) => e.entry);
  if (sorted.length === 1) return smtLeafHash(sorted[0].key, sorted[0].value);

  const shape = new TreeShape(sorted.map((e) => e.key));
  const root = shape.build(0, sorted.length, 0);
  const h = branchHasher();
  const branches = shape.branchDepth.length;
  // branches ordered by depth, deepest first (counting sort)
  const perDepth = new Int32Array(shape.maxDepth + 2);
  for (let i = 0; i < branches; i++) perDepth[shape.branchDepth[i]]++;
  let widest = 0;
  for (const count of perDepth) if (count > widest) widest = count;
  const jobsAt = slotOf(shape.nodes);
  h.reserve(jobsAt + (widest + 3) * PAIR_JOB_BYTES);
  const heap = h.heap;
  for (let i = 0; i < shape.leafEntry.length; i++) {
    const { key, value } = sorted[shape.leafEntry[i]];
    const at = slotOf(shape.leafNode[i]);
    smtLeafHashInto(heap.subarray(at, at + SLOT), key, value);
  }
  const starts = new Int32Array(shape.maxDepth + 2);
  for (let d = shape.maxDepth - 1; d >= 0; d--) starts[d] = starts[d + 1] + perDepth[d + 1];
  const order = new Int32Array(branches);
  const next = Int32Array.from(starts);
  for (let i = 0; i < branches; i++) order[next[shape.branchDepth[i]]++] = i;
  const words = h.words;
  const firstJob = jobsAt >> 2;
  for (let d = shape.maxDepth; d >= 0; d--) {
    const count = perDepth[d];
    for (let j = 0; j < count; j++) {
      const b = order[starts[d] + j];
      const w = firstJob + 3 * j;
      words[w] = slotOf(shape.branchLeft[b]);
      words[w + 1] = slotOf(shape.branchRight[b]);
      words[w + 2] = slotOf(shape.branchNode[b]);
    }
    h.hashPairs(jobsAt, count);
  }
  const at = slotOf(root);
  return Buffer.from(heap.subarray(at, at + SLOT));
};

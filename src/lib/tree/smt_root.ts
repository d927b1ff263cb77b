import { nativeSha256 } from '../crypto/sha256_native.js';
import type { InputForm, PairKind } from '../crypto/sha256_x4.js';
import { CHAIN_JOB_BYTES, PAIR_HASHER_RESERVED_BYTES, PAIR_JOB_BYTES, Sha256PairHasher } from '../crypto/sha256_x4.js';
import { EMPTY_HASH } from './hash.js';
import {
  BRANCH_DATA_BYTES,
  BRANCH_PREFIX,
  EMPTY_ROOT_REF,
  encodeLeaf,
  encodeLeafInto,
  keyBit,
  LEAF_PREFIX,
  NODE_BRANCH,
  NODE_REF_BYTES,
  nodeRef,
  smtLeafHash,
  smtLeafHashInto,
  VERSION_BYTES,
} from './smt_node.js';
import type { PackedSMTNodes } from './smt_packed.js';
import { packSMTNodes } from './smt_packed.js';

const SLOT = 32;
/** The empty subtree's hash lives in the first slot; node i's hash in slot i + 1. */
export const EMPTY_SLOT = PAIR_HASHER_RESERVED_BYTES;
/** Leaves whose values are 32 bytes (hashes: the state and event trees') are hashed in the hasher too, from inputs key || value. */
const LEAF_VALUE_LENGTH = 32;

/** The leaves' form for keys of `keyLength` bytes, if key || value fits the hasher's one-input form. */
export const leafForm = (keyLength: number): InputForm | undefined => {
  const length = keyLength + LEAF_VALUE_LENGTH;
  return LEAF_PREFIX.length + Math.ceil(length / 16) * 16 <= 128 ? { prefix: LEAF_PREFIX, length } : undefined;
};

const newBranchHasher = (keyLength: number): Sha256PairHasher => {
  const h = new Sha256PairHasher(BRANCH_PREFIX, EMPTY_HASH, leafForm(keyLength));
  h.reserve(EMPTY_SLOT + SLOT);
  h.heap.set(EMPTY_HASH, EMPTY_SLOT);
  return h;
};
/** One hasher per key length (its leaves' form depends on it), kept for the process's life. */
const shared = new Map<number, Sha256PairHasher>();
const sharedHasher = (keyLength: number): Sha256PairHasher => {
  let h = shared.get(keyLength);
  if (h === undefined) {
    h = newBranchHasher(keyLength);
    shared.set(keyLength, h);
  }
  return h;
};

/**
 * Memory a tree may use in the hasher kept for the process's life (a WebAssembly memory never shrinks):
 * a block's event tree needs about 1 MB, a live network's genesis block hundreds; a tree above the limit
 * gets a hasher of its own, collected after it.
 */
export const SHARED_HASHER_MEMORY_BYTES = 32 * 1024 * 1024;

export const slotOf = (node: number): number => EMPTY_SLOT + SLOT * (node + 1);

/** A hasher for trees of `keyLength`-byte keys with at least `bytes` of memory: the shared one, or one of its own above the limit. */
export const treeHasher = (
  keyLength: number,
  bytes: number,
  sharedLimit = SHARED_HASHER_MEMORY_BYTES,
): Sha256PairHasher => {
  const h = bytes <= sharedLimit ? sharedHasher(keyLength) : newBranchHasher(keyLength);
  h.reserve(bytes);
  return h;
};

/** Number of leading bits two keys of equal length share. */
const sharedBits = (a: Uint8Array, b: Uint8Array): number => {
  for (let i = 0; i < a.length; i++) {
    const diff = a[i] ^ b[i];
    if (diff !== 0) return i * 8 + Math.clz32(diff) - 24;
  }
  return a.length * 8;
};

const leafInput = Buffer.alloc(32);

/** Branch kinds, hashed in runs of their own: both children non-empty, or one of them the empty subtree. */
const KINDS = ['pair', 'constantLeft', 'constantRight'] as const satisfies readonly PairKind[];
const PAIR = 0;
const EMPTY_LEFT = 1;
const EMPTY_RIGHT = 2;

/** Where write puts a tree's chain jobs, when its branches with one child are hashed as chains. */
interface ChainJobs {
  /** Word index of the first chain job. */
  firstWord: number;
  /** Per run depth (the depth TreeJobs' #placeChains gives each chain), the index of its run's next job. */
  cursor: Int32Array;
  /** Byte offset where the chains' keys are copied (their bits choose each level's side). */
  keys: number;
}

const CHAIN_JOB_WORDS = CHAIN_JOB_BYTES / 4;

/**
 * One tree's branch hashes as jobs for the hasher, grouped by depth and kind. A first walk over the sorted
 * keys finds where each range of keys parts (and so how many branches of each kind each depth holds); the
 * second walk numbers the nodes, hashes the leaves and writes every branch's job into its run. With `chains`,
 * the branches with one child above a range's parting are one chain job (hashChains) instead of a job each,
 * and only the chain's top has a slot: an event tree has about 18 of them per leaf (keys that share their
 * 8-byte topic hash part only in their index bits).
 */
class TreeJobs {
  readonly #keys: readonly Uint8Array[];
  readonly chains: boolean;
  /** With chains: chains per run depth. */
  readonly chainCounts: Int32Array;
  /** Per range of two or more keys, in walk order: the depth where its keys part, and the first key on the right. */
  readonly #parting: Int32Array;
  readonly #split: Int32Array;
  /** With chains, per range: the depth its chain's jobs run at (-1: the range has no chain above it). */
  readonly #run: Int32Array;
  readonly depths: number;
  /** Branches per (kind, depth), at kind * depths + depth. */
  readonly counts: Int32Array;
  branches = 0;
  #ranges = 0;
  #nodes = 0;
  #chainKeys = 0;

  constructor(keys: readonly Uint8Array[], chains: boolean) {
    this.#keys = keys;
    this.chains = chains;
    this.#parting = new Int32Array(keys.length - 1);
    this.#split = new Int32Array(keys.length - 1);
    this.#run = new Int32Array(chains ? keys.length - 1 : 0).fill(-1);
    this.depths = keys[0].length * 8 + 1;
    this.counts = new Int32Array(KINDS.length * this.depths);
    this.chainCounts = new Int32Array(chains ? this.depths : 0);
    this.#shape(0, keys.length, 0);
    if (chains) this.#placeChains();
  }

  /**
   * A chain may be hashed at any depth from its top to its parting (after the branch where its keys part, before
   * the branch above its top): the chains that span one common depth are hashed there together, the others at
   * their tops. The native code hashes up to sixteen chains at once (AVX-512; four with SHA-NI alone), so one
   * large run keeps its lanes busy where runs per top depth leave many idle at each run's end (an event tree's long chains span the depths between
   * its topic groups and their index bits). The common depth is the one the most chain levels span.
   */
  #placeChains(): void {
    const { depths } = this;
    // levels of chains whose span starts (at its top) and ends (past its parting) at each depth
    const delta = new Int32Array(depths + 1);
    for (let range = 0; range < this.#ranges; range++) {
      const top = this.#run[range];
      if (top < 0) continue;
      const levels = this.#parting[range] - top;
      delta[top] += levels;
      delta[this.#parting[range] + 1] -= levels;
    }
    let common = 0;
    let best = 0;
    let spanning = 0;
    for (let d = 0; d < depths; d++) {
      spanning += delta[d];
      if (spanning > best) {
        best = spanning;
        common = d;
      }
    }
    for (let range = 0; range < this.#ranges; range++) {
      const top = this.#run[range];
      if (top < 0) continue;
      const run = top <= common && common <= this.#parting[range] ? common : top;
      this.#run[range] = run;
      this.chainCounts[run]++;
    }
  }

  #shape(lo: number, hi: number, depth: number): void {
    if (hi - lo === 1) return;
    const keys = this.#keys;
    const parting = sharedBits(keys[lo], keys[hi - 1]);
    let split = lo + 1;
    let end = hi - 1;
    while (split < end) {
      const mid = (split + end) >>> 1;
      if (keyBit(keys[mid], parting) === 0) split = mid + 1;
      else end = mid;
    }
    const range = this.#ranges++;
    this.#parting[range] = parting;
    this.#split[range] = split;
    const { counts, depths } = this;
    counts[PAIR * depths + parting]++;
    // above the parting, a chain of branches with the subtree on the side of the keys' bit
    if (!this.chains) {
      for (let d = depth; d < parting; d++)
        counts[(keyBit(keys[lo], d) === 0 ? EMPTY_RIGHT : EMPTY_LEFT) * depths + d]++;
      this.branches += 1 + parting - depth;
    } else if (parting > depth) {
      // the chain's top for now: #placeChains sets the depth it runs at
      this.#run[range] = depth;
      this.branches += 2;
    } else this.branches += 1;
    this.#shape(lo, split, parting + 1);
    this.#shape(split, hi, parting + 1);
  }

  /**
   * Second walk: leaves hashed into their slots, branch jobs written at `cursor[kind * depths + depth]`
   * (job indexes from `firstWord`, three words each). Returns the root's slot.
   */
  write(
    entries: readonly { key: Buffer; value: Buffer }[],
    heap: Buffer,
    words: Int32Array,
    firstWord: number,
    cursor: Int32Array,
    leaves?: { inputs: number; stride: number; firstWord: number },
    leafSlots?: Int32Array,
    chainJobs?: ChainJobs,
  ): number {
    this.#ranges = 0;
    this.#nodes = 0;
    this.#chainKeys = 0;
    const { depths } = this;
    const job = (run: number, left: number, right: number): number => {
      const out = slotOf(this.#nodes++);
      const w = firstWord + 3 * cursor[run]++;
      words[w] = left;
      words[w + 1] = right;
      words[w + 2] = out;
      return out;
    };
    const walk = (lo: number, hi: number, depth: number): number => {
      if (hi - lo === 1) {
        const out = slotOf(this.#nodes++);
        if (leafSlots !== undefined) leafSlots[lo] = out;
        const { key, value } = entries[lo];
        if (leaves === undefined) {
          smtLeafHashInto(leafInput, key, value);
          heap.set(leafInput, out);
          return out;
        }
        const at = leaves.inputs + leaves.stride * lo;
        heap.set(key, at);
        heap.set(value, at + key.length);
        const w = leaves.firstWord + 3 * lo;
        words[w] = at;
        words[w + 2] = out;
        return out;
      }
      const range = this.#ranges++;
      const parting = this.#parting[range];
      const split = this.#split[range];
      const left = walk(lo, split, parting + 1);
      let node = job(PAIR * depths + parting, left, walk(split, hi, parting + 1));
      const key = this.#keys[lo];
      if (chainJobs !== undefined) {
        if (parting === depth) return node;
        const top = slotOf(this.#nodes++);
        const keyAt = chainJobs.keys + this.#chainKeys++ * key.length;
        heap.set(key, keyAt);
        const w = chainJobs.firstWord + CHAIN_JOB_WORDS * chainJobs.cursor[this.#run[range]]++;
        words[w] = node;
        words[w + 1] = top;
        words[w + 2] = keyAt;
        words[w + 3] = depth;
        words[w + 4] = parting;
        return top;
      }
      for (let d = parting - 1; d >= depth; d--)
        node =
          keyBit(key, d) === 0
            ? job(EMPTY_RIGHT * depths + d, node, EMPTY_SLOT)
            : job(EMPTY_LEFT * depths + d, EMPTY_SLOT, node);
      return node;
    };
    return walk(0, entries.length, 0);
  }
}

/**
 * The root of a sparse Merkle tree holding exactly `entries` (keys of equal length, unique), as LIP 0039
 * builds it: a leaf sits where its subtree holds nothing else, a branch hashes its two subtrees (an empty
 * one is the empty hash). Equals `update(EMPTY_HASH, entries).root` without storing nodes (event roots).
 *
 * The shape is laid out first; then every branch at one depth is independent of the others, so the
 * branches are hashed depth by depth, deepest first, four at a time (sha256_x4.ts), each hash written
 * into a slot of the hasher's memory: no allocation per node. Most branches of an event tree have one
 * empty child (keys share their 8-byte topic hash), so those run in code with the empty hash folded in.
 */
export const smtRootOf = (entries: readonly { key: Buffer; value: Buffer }[]): Buffer =>
  smtRootWithin(entries, SHARED_HASHER_MEMORY_BYTES);

/** The hashed tree: every node's hash in a slot of the hasher's memory, every branch a job of a run. */
interface HashedTree {
  /** The root's slot. */
  root: number;
  heap: Buffer;
  words: Int32Array;
  /** Word index of the first job; each run's first job and job count. */
  firstWord: number;
  starts: Int32Array;
  counts: Int32Array;
  /** Each sorted entry's leaf slot, when asked for. */
  leafSlots: Int32Array | undefined;
}

/** A key's leading bytes as a number (up to 6 bytes: exact in a float64), `from` on. */
const leadingNumber = (key: Buffer, from: number): number => {
  const length = Math.min(6, key.length - from);
  return length > 0 ? key.readUIntBE(from, length) : 0;
};

/**
 * The entries in key order; refuses keys of unequal length and duplicates. Keys compare as two numbers
 * (their first twelve bytes) and only on a tie as bytes: several times faster than comparing Buffers or
 * latin1 strings, and a tree's keys (a store prefix, then a hash) rarely tie beyond their twelfth byte.
 */
const sortedEntries = (entries: readonly { key: Buffer; value: Buffer }[]): { key: Buffer; value: Buffer }[] => {
  const keyLength = entries[0].key.length;
  const count = entries.length;
  const high = new Float64Array(count);
  const low = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const { key } = entries[i];
    if (key.length !== keyLength) throw new Error('Sparse Merkle tree keys must all have the same length');
    high[i] = leadingNumber(key, 0);
    low[i] = leadingNumber(key, 6);
  }
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => high[a] - high[b] || low[a] - low[b] || Buffer.compare(entries[a].key, entries[b].key));
  for (let i = 1; i < count; i++) {
    const [a, b] = [order[i - 1], order[i]];
    if (high[a] === high[b] && low[a] === low[b] && entries[a].key.equals(entries[b].key))
      throw new Error('Duplicate key in SMT entries');
  }
  return order.map((i) => entries[i]);
};

/**
 * Hashes the tree of two or more entries in key order (see smtRootOf). `rootOnly`: only the root is read
 * afterwards, so the runs of one-child branches may be hashed as chains (where the SHA-NI code runs: the
 * hashers' default), which give their tops' hashes only.
 */
const hashTree = (
  sorted: readonly { key: Buffer; value: Buffer }[],
  sharedLimit: number,
  keepLeafSlots: boolean,
  rootOnly = !keepLeafSlots,
): HashedTree => {
  const tree = new TreeJobs(
    sorted.map((e) => e.key),
    rootOnly && nativeSha256 !== undefined,
  );
  // runs deepest first, each kind's run of a depth starting on a whole group of four (the hasher pads a run up to one)
  const { counts, depths } = tree;
  const cursor = new Int32Array(counts.length);
  let jobs = 0;
  for (let d = depths - 1; d >= 0; d--)
    for (let kind = 0; kind < KINDS.length; kind++) {
      cursor[kind * depths + d] = jobs;
      jobs += (counts[kind * depths + d] + 3) & ~3;
    }
  const starts = Int32Array.from(cursor);
  const { chainCounts } = tree;
  const chainCursor = new Int32Array(chainCounts.length);
  let chains = 0;
  for (let d = chainCounts.length - 1; d >= 0; d--) {
    chainCursor[d] = chains;
    chains += chainCounts[d];
  }
  const chainStarts = Int32Array.from(chainCursor);
  // the leaves' inputs (whole 16-byte pieces, and one spare piece read past the last), then the branch jobs, then the leaf jobs
  const keyLength = sorted[0].key.length;
  const form = leafForm(keyLength);
  const batchLeaves = form !== undefined && sorted.every((e) => e.value.length === LEAF_VALUE_LENGTH);
  const stride = form === undefined ? 0 : Math.ceil(form.length / 16) * 16;
  const inputsAt = slotOf(sorted.length + tree.branches);
  const jobsAt = inputsAt + (batchLeaves ? stride * sorted.length + 16 : 0);
  const chainJobsAt = jobsAt + jobs * PAIR_JOB_BYTES;
  const chainKeysAt = chainJobsAt + chains * CHAIN_JOB_BYTES;
  const leafJobsAt = chainKeysAt + ((chains * keyLength + 3) & ~3);
  const bytes = leafJobsAt + (batchLeaves ? ((sorted.length + 3) & ~3) * PAIR_JOB_BYTES : 0);
  const h = treeHasher(keyLength, bytes, sharedLimit);
  const heap = h.heap;
  const leaves = batchLeaves ? { inputs: inputsAt, stride, firstWord: leafJobsAt >> 2 } : undefined;
  const leafSlots = keepLeafSlots ? new Int32Array(sorted.length) : undefined;
  const chainJobs = tree.chains ? { firstWord: chainJobsAt >> 2, cursor: chainCursor, keys: chainKeysAt } : undefined;
  const root = tree.write(sorted, heap, h.words, jobsAt >> 2, cursor, leaves, leafSlots, chainJobs);
  if (batchLeaves) h.hashInputs(leafJobsAt, sorted.length);
  for (let d = depths - 1; d >= 0; d--) {
    for (let kind = 0; kind < KINDS.length; kind++) {
      const run = kind * depths + d;
      h.hashPairs(jobsAt + starts[run] * PAIR_JOB_BYTES, counts[run], KINDS[kind]);
    }
    // a chain's input is the branch at its parting (hashed at that depth or deeper than this one); its top is read
    // by the branches above it (at its top's depth less one or shallower)
    if (tree.chains) h.hashChains(chainJobsAt + chainStarts[d] * CHAIN_JOB_BYTES, chainCounts[d]);
  }
  return { root, heap, words: h.words, firstWord: jobsAt >> 2, starts, counts, leafSlots };
};

/**
 * smtRootOf with the shared hasher's memory limit given (tests take the other path with a small one), and
 * whether chains may be hashed as such (tests compare both ways).
 */
export const smtRootWithin = (
  entries: readonly { key: Buffer; value: Buffer }[],
  sharedLimit: number,
  chains = true,
): Buffer => {
  if (entries.length === 0) return EMPTY_HASH;
  const sorted = sortedEntries(entries);
  if (sorted.length === 1) return smtLeafHash(sorted[0].key, sorted[0].value);
  const { heap, root } = hashTree(sorted, sharedLimit, false, chains);
  return Buffer.from(heap.subarray(root, root + SLOT));
};

/**
 * smtRootOf of entries the caller has put in key order already (an event root orders its entries by
 * topic, cheaper than sorting them): the order is checked, not made.
 */
export const smtRootOfSorted = (
  entries: readonly { key: Buffer; value: Buffer }[],
  sharedLimit = SHARED_HASHER_MEMORY_BYTES,
): Buffer => {
  if (entries.length === 0) return EMPTY_HASH;
  const keyLength = entries[0].key.length;
  for (let i = 0; i < entries.length; i++) {
    if (entries[i].key.length !== keyLength) throw new Error('Sparse Merkle tree keys must all have the same length');
    if (i > 0 && Buffer.compare(entries[i - 1].key, entries[i].key) >= 0)
      throw new Error('SMT entries out of key order, or a duplicate key');
  }
  if (entries.length === 1) return smtLeafHash(entries[0].key, entries[0].value);
  const { heap, root } = hashTree(entries, sharedLimit, false);
  return Buffer.from(heap.subarray(root, root + SLOT));
};

/** Copies a 32-byte hash; a loop the JIT compiles beats Buffer#copy's call for so few bytes. */
const copySlot = (from: Uint8Array, at: number, to: Uint8Array, toAt: number): void => {
  for (let i = 0; i < SLOT; i++) to[toAt + i] = from[at + i];
};

/**
 * A reference `version || hash` written at `at`, the hash copied from `heap` at `slot`; the empty subtree,
 * never stored, has version 0 whatever the tree's (as EMPTY_NODE.ref).
 */
const writeRef = (version: number, heap: Uint8Array, slot: number, data: Buffer, at: number): void => {
  data.writeUInt32BE(slot === EMPTY_SLOT ? 0 : version, at);
  copySlot(heap, slot, data, at + VERSION_BYTES);
};

/**
 * The tree holding exactly `entries`, built on the empty tree as smtRootOf builds it, with every node
 * it holds in stored form: what `SparseMerkleTree.update(EMPTY_HASH, entries, true, version)` creates,
 * packed in two buffers instead of an object per node, and in hash order, so a tree built from scratch (a
 * genesis block's state) is stored as appends.
 */
export const buildSMT = (
  entries: readonly { key: Buffer; value: Buffer }[],
  version = 0,
): { root: Buffer; rootRef: Buffer; nodes: PackedSMTNodes } => {
  if (entries.length === 0)
    return {
      root: EMPTY_HASH,
      rootRef: EMPTY_ROOT_REF,
      nodes: packSMTNodes(Buffer.alloc(0), Buffer.alloc(0), [0], version),
    };
  const sorted = sortedEntries(entries);
  let leafBytes = 0;
  for (const { key, value } of sorted) leafBytes += 1 + key.length + value.length;
  if (sorted.length === 1) {
    const { key, value } = sorted[0];
    const root = smtLeafHash(key, value);
    return {
      root,
      rootRef: nodeRef(version, root),
      nodes: packSMTNodes(root, encodeLeaf(key, value), [0, leafBytes], version),
    };
  }
  // a hasher of its own: a tree built from scratch is large, and its memory goes with it
  const t = hashTree(sorted, 0, true);
  const { heap, words, counts, starts, firstWord } = t;
  const leafSlots = t.leafSlots as Int32Array;
  let branches = 0;
  for (const c of counts) branches += c;
  const count = sorted.length + branches;
  const hashes = Buffer.allocUnsafe(count * SLOT);
  const data = Buffer.allocUnsafe(leafBytes + branches * BRANCH_DATA_BYTES);
  const ends = new Int32Array(count + 1);
  let node = 0;
  let at = 0;
  for (let i = 0; i < sorted.length; i++) {
    const { key, value } = sorted[i];
    copySlot(heap, leafSlots[i], hashes, node * SLOT);
    at += encodeLeafInto(data, at, key, value);
    ends[++node] = at;
  }
  for (let run = 0; run < counts.length; run++) {
    for (let j = 0, w = firstWord + 3 * starts[run]; j < counts[run]; j++, w += 3) {
      copySlot(heap, words[w + 2], hashes, node * SLOT);
      data[at] = NODE_BRANCH;
      writeRef(version, heap, words[w], data, at + 1);
      writeRef(version, heap, words[w + 1], data, at + 1 + NODE_REF_BYTES);
      at += BRANCH_DATA_BYTES;
      ends[++node] = at;
    }
  }
  const root = Buffer.from(heap.subarray(t.root, t.root + SLOT));
  return { root, rootRef: nodeRef(version, root), nodes: packSMTNodes(hashes, data, ends, version) };
};

import { EMPTY_HASH } from './hash.js';
import type { NewNode, TreeRef } from './smt_batch.js';
import { hashNewNodes, isNew, levelOf } from './smt_batch.js';
import type { SMTNode } from './smt_node.js';
import {
  asNodeRef,
  decodeNode,
  EMPTY_NODE,
  encodeBranch,
  encodeLeaf,
  keyBit,
  nodeRef,
  refHash,
  smtBranchHash,
  smtLeafHash,
} from './smt_node.js';

/** Where tree nodes come from: the encoded node stored under a reference (`version || hash`), undefined when absent. */
export interface SMTNodeReader {
  get(ref: Buffer): Buffer | undefined;
}

export interface SMTQuery {
  key: Buffer;
  value: Buffer;
  bitmap: Buffer;
}

/** LIP 0039 multiproof. */
export interface SMTProof {
  siblingHashes: Buffer[];
  queries: SMTQuery[];
}

export interface SMTUpdateResult {
  root: Buffer;
  /** The root's reference: the next update's and proofs' starting point. */
  rootRef: Buffer;
  /**
   * Nodes created by the update, encoded for storage under their references (`ref`, the update's version and
   * the node's hash), each once (a node's hash covers its keys, so no two are alike). A list, not a map: a
   * genesis block creates 300,000 of them, and hashing each key into a map cost more than building the node.
   */
  nodes: { ref: Buffer; data: Buffer }[];
}

const hashKey = (hash: Buffer): string => hash.toString('latin1');

/** Binary bitmap as stored: MSB-first bits, left-padded to whole bytes. */
const bitsToBytes = (bits: readonly boolean[]): Buffer => {
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  const pad = out.length * 8 - bits.length;
  bits.forEach((b, i) => {
    if (b) out[(i + pad) >> 3] |= 0x80 >> ((i + pad) & 7);
  });
  return out;
};

/** Bitmap bytes to bits with leading zeros removed. */
const bytesToStrippedBits = (bytes: Uint8Array): boolean[] => {
  const bits: boolean[] = [];
  let seen = false;
  for (let i = 0; i < bytes.length * 8; i++) {
    const b = keyBit(bytes, i) === 1;
    if (b) seen = true;
    if (seen) bits.push(b);
  }
  return bits;
};

/**
 * A LIP 0039 sparse Merkle tree over fixed-length keys. Stateless: every call takes the root;
 * nodes are read through `reader`, and an update returns the nodes it created for the caller to store.
 */
export class SparseMerkleTree {
  constructor(
    readonly keyLength: number,
    private readonly reader: SMTNodeReader,
  ) {
    if (!Number.isInteger(keyLength) || keyLength < 1) throw new Error('keyLength must be a positive integer');
  }

  /** Updates only ever load nodes that existed before them (new nodes are built bottom-up), so the reader is enough. */
  #load(ref: Buffer): SMTNode {
    const hash = refHash(ref);
    if (hash.equals(EMPTY_HASH)) return EMPTY_NODE;
    const data = this.reader.get(ref);
    if (data === undefined)
      throw new Error(`Missing sparse Merkle tree node ${hash.toString('hex')} (version ${ref.readUInt32BE(0)})`);
    return decodeNode(ref, data, this.keyLength);
  }

  #checkKey(key: Uint8Array): void {
    if (!(key instanceof Uint8Array) || key.length !== this.keyLength) {
      throw new Error(
        `Sparse Merkle tree keys must be ${this.keyLength} bytes, got ${key instanceof Uint8Array ? key.length : typeof key}`,
      );
    }
  }

  /**
   * Applies a batch of changes (an empty value deletes the key) to the tree under `root` (a reference, or a
   * bare hash read as version 0). Keys must be distinct. Only the paths of changed keys are visited; the
   * result is the canonical tree of the final data, its new nodes referenced under `version`.
   * Without `collectNodes` only the root is wanted: the created nodes are not encoded or returned.
   */
  update(
    root: Buffer,
    changes: readonly { key: Buffer; value: Buffer }[],
    collectNodes = true,
    version = 0,
  ): SMTUpdateResult {
    for (const c of changes) this.#checkKey(c.key);
    // latin1 strings order as their bytes do and compare several times faster than Buffers
    const byKey = changes.map((c) => ({ order: c.key.toString('latin1'), change: c }));
    byKey.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    const sorted = byKey.map((c) => c.change);
    for (let i = 1; i < sorted.length; i++) {
      if (byKey[i - 1].order === byKey[i].order)
        throw new Error(`Duplicate key in update: ${sorted[i].key.toString('hex')}`);
    }
    // the tree's new nodes are laid out first and hashed together afterwards (smt_batch.ts)
    const created: NewNode[] = [];
    const newLeaf = (key: Buffer, value: Buffer): NewNode => {
      const node: NewNode = { kind: 'leaf', id: created.length, key, value };
      created.push(node);
      return node;
    };
    const onlyDeletions = (lo: number, hi: number): boolean => {
      for (let i = lo; i < hi; i++) if (sorted[i].value.length !== 0) return false;
      return true;
    };
    /** The first index in [lo, hi) whose key has bit `height` set: the keys there share their first `height` bits, so the bit only rises. */
    const splitAt = (lo: number, hi: number, height: number): number => {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keyBit(sorted[mid].key, height) === 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    // a subtree no change reached is read only when its sibling became empty (a leaf there moves up)
    const resolved = (ref: TreeRef): TreeRef => (ref.kind === 'stored' ? this.#load(ref.ref) : ref);
    const join = (left: TreeRef, right: TreeRef): TreeRef => {
      if (left.kind === 'empty') right = resolved(right);
      if (right.kind === 'empty') left = resolved(left);
      if (left.kind === 'empty' && right.kind !== 'branch') return right;
      if (right.kind === 'empty' && left.kind === 'leaf') return left;
      const node: NewNode = {
        kind: 'branch',
        id: created.length,
        level: 1 + Math.max(levelOf(left), levelOf(right)),
        left,
        right,
      };
      created.push(node);
      return node;
    };
    const child = (ref: Buffer, lo: number, hi: number, height: number): TreeRef => {
      if (lo < hi) return visit(this.#load(ref), lo, hi, height);
      const hash = refHash(ref);
      return hash.equals(EMPTY_HASH) ? EMPTY_NODE : { kind: 'stored', hash, ref };
    };
    const visit = (node: SMTNode, lo: number, hi: number, height: number): TreeRef => {
      if (lo === hi) return node;
      if (hi - lo === 1) {
        const { key, value } = sorted[lo];
        if (node.kind === 'empty') return value.length === 0 ? node : newLeaf(key, value);
        if (node.kind === 'leaf' && node.key.equals(key)) return value.length === 0 ? EMPTY_NODE : newLeaf(key, value);
        if (node.kind === 'leaf' && value.length === 0) return node;
      }
      const split = splitAt(lo, hi, height);
      if (node.kind === 'branch')
        return join(child(node.left, lo, split, height + 1), child(node.right, split, hi, height + 1));
      let left: SMTNode = EMPTY_NODE;
      let right: SMTNode = EMPTY_NODE;
      if (node.kind === 'leaf') {
        if (keyBit(node.key, height) === 0) left = node;
        else right = node;
      } else if (onlyDeletions(lo, hi)) {
        return node; // deleting keys under an empty subtree changes nothing
      }
      return join(visit(left, lo, split, height + 1), visit(right, split, hi, height + 1));
    };
    const result = visit(this.#load(asNodeRef(root)), 0, sorted.length, 0);
    const hashes = hashNewNodes(created, this.keyLength);
    const refs = collectNodes ? created.map((node) => nodeRef(version, hashes[node.id])) : [];
    const refOf = (ref: TreeRef): Buffer => (isNew(ref) ? (refs[ref.id] ?? nodeRef(version, hashes[ref.id])) : ref.ref);
    const nodes: { ref: Buffer; data: Buffer }[] = [];
    if (collectNodes)
      for (const node of created) {
        const data =
          node.kind === 'leaf' ? encodeLeaf(node.key, node.value) : encodeBranch(refOf(node.left), refOf(node.right));
        nodes.push({ ref: refs[node.id], data });
      }
    return { root: isNew(result) ? hashes[result.id] : result.hash, rootRef: refOf(result), nodes };
  }

  /** The value stored under `key`, or undefined. */
  get(root: Buffer, key: Buffer): Buffer | undefined {
    this.#checkKey(key);
    let node = this.#load(asNodeRef(root));
    for (let h = 0; node.kind === 'branch'; h++) node = this.#load(keyBit(key, h) === 0 ? node.left : node.right);
    return node.kind === 'leaf' && node.key.equals(key) ? node.value : undefined;
  }

  /** LIP 0039 multiproof (inclusion or non-inclusion) for the query keys. */
  prove(root: Buffer, queryKeys: readonly Buffer[]): SMTProof {
    if (queryKeys.length === 0) return { siblingHashes: [], queries: [] };
    const ancestors = new Set<string>();
    const paths = queryKeys.map((key) => {
      this.#checkKey(key);
      const siblings: Buffer[] = [];
      const bits: boolean[] = [];
      let node = this.#load(asNodeRef(root));
      for (let h = 0; node.kind === 'branch'; h++) {
        ancestors.add(hashKey(node.hash));
        const goRight = keyBit(key, h) === 1;
        const sibling = refHash(goRight ? node.left : node.right);
        node = this.#load(goRight ? node.right : node.left);
        const nonEmpty = !sibling.equals(EMPTY_HASH);
        bits.unshift(nonEmpty);
        if (nonEmpty) siblings.push(sibling);
      }
      if (node.kind === 'leaf') ancestors.add(hashKey(node.hash));
      const query = node.kind === 'leaf' ? { key: node.key, value: node.value } : { key, value: Buffer.alloc(0) };
      return new PendingQuery(query.key, query.value, bits, siblings);
    });
    const queries: SMTQuery[] = paths.map((p) => ({ key: p.key, value: p.value, bitmap: bitsToBytes(p.bits) }));
    const sorted = [...paths].sort(PendingQuery.compare);
    const siblingHashes: Buffer[] = [];
    const used = new Set<string>();
    for (let q = sorted.shift(); q !== undefined; q = sorted.shift()) {
      if (q.height === 0) continue;
      if (q.bits[q.offset]) {
        const hash = q.siblings.pop();
        if (hash === undefined) throw new Error('SMT proof: a query has no sibling hash left at its height');
        const k = hashKey(hash);
        if (!ancestors.has(k) && !used.has(k)) {
          siblingHashes.push(hash);
          used.add(k);
        }
      }
      q.offset++;
      insertQuery(sorted, q);
    }
    return { siblingHashes, queries };
  }
}

/** A query moving up the tree: `bits` from the deepest level up, `offset` levels already consumed. */
class PendingQuery {
  offset = 0;
  constructor(
    readonly key: Buffer,
    readonly value: Buffer,
    readonly bits: boolean[],
    readonly siblings: Buffer[],
    public hash: Buffer = value.length === 0 ? EMPTY_HASH : smtLeafHash(key, value),
  ) {}

  get height(): number {
    return this.bits.length - this.offset;
  }

  /** Deepest first, then smaller key first (bottom-up, left-right). */
  static compare(a: PendingQuery, b: PendingQuery): number {
    return a.height !== b.height ? b.height - a.height : Buffer.compare(a.key, b.key);
  }

  samePath(other: PendingQuery): boolean {
    if (this.height !== other.height) return false;
    for (let i = 0; i < this.height; i++) if (keyBit(this.key, i) !== keyBit(other.key, i)) return false;
    return true;
  }

  isSiblingOf(other: PendingQuery): boolean {
    const h = this.height;
    if (h !== other.height || h === 0) return false;
    for (let i = 0; i < h - 1; i++) if (keyBit(this.key, i) !== keyBit(other.key, i)) return false;
    return keyBit(this.key, h - 1) !== keyBit(other.key, h - 1);
  }
}

/** Inserts keeping the order of PendingQuery.compare; a query whose path is already queued is dropped (the branches merged). */
const insertQuery = (queue: PendingQuery[], q: PendingQuery): void => {
  let low = -1;
  let high = queue.length;
  while (1 + low < high) {
    const mid = low + ((high - low) >> 1);
    const p = queue[mid];
    if ((q.height === p.height && Buffer.compare(q.key, p.key) < 0) || q.height > p.height) high = mid;
    else low = mid;
  }
  if (high === queue.length) queue.push(q);
  else if (!queue[high].samePath(q)) queue.splice(high, 0, q);
};

const bitsEqual = (a: PendingQuery, b: PendingQuery, from: number): boolean => {
  for (let i = from; i < a.height; i++) if (a.bits[a.offset + i] !== b.bits[b.offset + i]) return false;
  return true;
};

/** Root computed from a proof's queries and sibling hashes; throws when the proof is inconsistent. */
export const calculateSMTRoot = (siblingHashes: readonly Buffer[], queries: readonly SMTQuery[]): Buffer => {
  const pending = queries.map((q) => new PendingQuery(q.key, q.value, bytesToStrippedBits(q.bitmap), []));
  const sorted = pending.sort(PendingQuery.compare);
  let next = 0;
  for (let q = sorted.shift(); q !== undefined; q = sorted.shift()) {
    if (q.height === 0) {
      if (next !== siblingHashes.length) throw new Error('Not all sibling hashes were used');
      return q.hash;
    }
    let sibling: Buffer;
    if (sorted.length > 0 && q.isSiblingOf(sorted[0])) {
      const s = sorted[0];
      sorted.shift();
      const siblingEmpty = s.hash.equals(EMPTY_HASH);
      const queryEmpty = q.hash.equals(EMPTY_HASH);
      if (siblingEmpty === q.bits[q.offset] || queryEmpty === s.bits[s.offset])
        throw new Error('bitmap is not consistent with the nodes type');
      if (!bitsEqual(q, s, 1)) throw new Error('nodes do not share common path');
      sibling = s.hash;
    } else if (!q.bits[q.offset]) {
      sibling = EMPTY_HASH;
    } else {
      if (next === siblingHashes.length) throw new Error('no more sibling hashes available');
      sibling = siblingHashes[next++];
    }
    const bit = keyBit(q.key, q.height - 1);
    q.hash = bit === 0 ? smtBranchHash(q.hash, sibling) : smtBranchHash(sibling, q.hash);
    q.offset++;
    insertQuery(sorted, q);
  }
  throw new Error('Can not calculate root hash');
};

const commonPrefixLength = (a: Uint8Array, b: Uint8Array): number => {
  let i = 0;
  while (i < a.length * 8 && keyBit(a, i) === keyBit(b, i)) i++;
  return i;
};

/**
 * Checks a multiproof for the query keys against the root, with lisk-db's rules:
 * one query per key, keys of the tree's length, no leading zero bitmap byte, a query for
 * another key only as a non-empty leaf on the key's path, duplicates consistent.
 */
export const verifySMTProof = (
  queryKeys: readonly Buffer[],
  proof: SMTProof,
  root: Uint8Array,
  keyLength: number,
): boolean => {
  if (queryKeys.length !== proof.queries.length) return false;
  const byPath = new Map<string, SMTQuery>();
  const unique: SMTQuery[] = [];
  for (let i = 0; i < queryKeys.length; i++) {
    const key = queryKeys[i];
    const q = proof.queries[i];
    if (key.length !== keyLength || q.key.length !== keyLength) return false;
    if (q.bitmap.length > 0 && q.bitmap[0] === 0) return false;
    const bits = bytesToStrippedBits(q.bitmap);
    if (bits.length > keyLength * 8) return false;
    if (!key.equals(q.key)) {
      if (q.value.length === 0) return false;
      if (bits.length > commonPrefixLength(key, q.key)) return false;
    }
    const path = Array.from({ length: bits.length }, (_, b) => keyBit(q.key, b)).join('');
    const seen = byPath.get(path);
    if (seen !== undefined) {
      if (!seen.bitmap.equals(q.bitmap) || !seen.value.equals(q.value)) return false;
      if (q.value.length > 0 && !seen.key.equals(q.key)) return false;
    } else {
      byPath.set(path, q);
      unique.push(q);
    }
  }
  try {
    return calculateSMTRoot(proof.siblingHashes, unique).equals(root);
  } catch {
    return false;
  }
};

/** True when the proof's query for `key` proves the key is in the tree. */
export const isInclusionProofForKey = (key: Buffer, query: SMTQuery): boolean =>
  key.equals(query.key) && query.value.length > 0;

/**
 * In-memory node store, for tests, tools and workers that build a tree from scratch: nodes by hash, whatever
 * their version (a node's hash fixes its content), so a bare root hash reads as well as its reference.
 */
export class InMemorySMTStore implements SMTNodeReader {
  readonly #nodes = new Map<string, Buffer>();
  get(ref: Buffer): Buffer | undefined {
    return this.#nodes.get(hashKey(refHash(ref)));
  }
  apply(result: SMTUpdateResult): Buffer {
    for (const { ref, data } of result.nodes) this.#nodes.set(hashKey(refHash(ref)), data);
    return result.root;
  }
  get size(): number {
    return this.#nodes.size;
  }
}

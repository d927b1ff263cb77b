import { NODE_REF_BYTES, VERSION_BYTES } from './smt_node.js';

const HASH_BYTES = 32;

/** Tree nodes to store, each in stored form under its reference (`version || hash`). */
export interface SMTNodeList {
  readonly size: number;
  /** True when forEach visits the references in ascending byte order (a store holding none of them can append them). */
  readonly ascending: boolean;
  forEach(visit: (ref: Buffer, data: Buffer) => void): void;
}

/** An update's node list (`SparseMerkleTree.update`), in the order the update created them. */
export const smtNodeList = (nodes: readonly { ref: Buffer; data: Buffer }[]): SMTNodeList => ({
  size: nodes.length,
  ascending: false,
  forEach: (visit) => {
    for (const { ref, data } of nodes) visit(ref, data);
  },
});

/**
 * Nodes of one version packed in two buffers: node i's hash at hashes[32 i, 32 i + 32), its stored form at
 * data[ends[i], ends[i + 1]).
 */
export class PackedSMTNodes implements SMTNodeList {
  readonly ascending = true;
  readonly #order: Uint32Array;

  constructor(
    readonly hashes: Buffer,
    readonly data: Buffer,
    readonly ends: ArrayLike<number>,
    readonly version = 0,
  ) {
    if (hashes.length % HASH_BYTES !== 0 || ends.length !== hashes.length / HASH_BYTES + 1)
      throw new Error('Packed tree nodes need one 32-byte hash and one end offset per node');
    this.#order = ascendingHashOrder(hashes);
  }

  get size(): number {
    return this.#order.length;
  }

  /** Visits the nodes in ascending hash order, which with one version is ascending reference order. */
  forEach(visit: (ref: Buffer, data: Buffer) => void): void {
    const { hashes, data, ends } = this;
    const refs = Buffer.allocUnsafe(this.#order.length * NODE_REF_BYTES);
    let at = 0;
    for (const i of this.#order) {
      refs.writeUInt32BE(this.version, at);
      hashes.copy(refs, at + VERSION_BYTES, i * HASH_BYTES, (i + 1) * HASH_BYTES);
      visit(refs.subarray(at, at + NODE_REF_BYTES), data.subarray(ends[i], ends[i + 1]));
      at += NODE_REF_BYTES;
    }
  }
}

export const packSMTNodes = (hashes: Buffer, data: Buffer, ends: ArrayLike<number>, version = 0): PackedSMTNodes =>
  new PackedSMTNodes(hashes, data, ends, version);

/**
 * Node indexes in ascending order of their 32-byte hashes. Each hash's leading bits and its index share one
 * float64 (53 exact bits), so a numeric typed-array sort does the work without a comparison callback;
 * runs whose leading bits tie (a handful among hundreds of thousands of hashes) are then ordered in full.
 */
const ascendingHashOrder = (hashes: Buffer): Uint32Array => {
  const count = hashes.length / HASH_BYTES;
  const indexBits = Math.max(1, Math.ceil(Math.log2(count + 1)));
  if (indexBits > 52) throw new Error('Too many tree nodes to order');
  const prefixBits = Math.min(32, 53 - indexBits);
  const indexScale = 2 ** indexBits;
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++)
    keys[i] = Math.floor(hashes.readUInt32BE(i * HASH_BYTES) / 2 ** (32 - prefixBits)) * indexScale + i;
  keys.sort();
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = keys[i] % indexScale;
  const prefixOf = (k: number): number => Math.floor(k / indexScale);
  for (let start = 0; start < count; ) {
    let end = start + 1;
    while (end < count && prefixOf(keys[end]) === prefixOf(keys[start])) end++;
    if (end - start > 1) sortRun(hashes, order, start, end);
    start = end;
  }
  return order;
};

/** Insertion sort of order[start, end) by the full hashes (the runs are a few nodes long). */
const sortRun = (hashes: Buffer, order: Uint32Array, start: number, end: number): void => {
  const hashAt = (i: number): Buffer => hashes.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES);
  for (let i = start + 1; i < end; i++) {
    const node = order[i];
    let j = i - 1;
    while (j >= start && Buffer.compare(hashAt(order[j]), hashAt(node)) > 0) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = node;
  }
};

import { branchHash, branchHashes, EMPTY_HASH, leafHash, leafHashes } from './hash.js';
import {
  calculatePathNodes,
  compareIndices,
  insertIndex,
  layerStructure,
  ROOT_INDEX,
  siblingLocation,
  toIndex,
  toLocation,
  treeHeight,
} from './merkle_utils.js';

/** LIP 0031 inclusion proof; `idxs` are proof indices (0 for a query not in the tree). */
export interface MerkleProof {
  size: number;
  idxs: number[];
  siblingHashes: Buffer[];
}

/**
 * Builds the layers of a LIP 0031 tree bottom-up: pairs from the left; an odd last node
 * waits and is paired with the odd last node of a later layer (or becomes part of the root).
 */
const buildLayers = (leaves: readonly Buffer[]): Buffer[][] => {
  const layers: Buffer[][] = [leaves.slice()];
  let current = leaves.slice();
  let waiting: Buffer | undefined;
  while (current.length > 1 || (waiting !== undefined && current.length > 0)) {
    const pairs: [Buffer, Buffer][] = [];
    for (let i = 0; i + 1 < current.length; i += 2) pairs.push([current[i], current[i + 1]]);
    if (current.length % 2 === 1) {
      if (waiting === undefined) waiting = current[current.length - 1];
      else {
        pairs.push([current[current.length - 1], waiting]);
        waiting = undefined;
      }
    }
    const parents = branchHashes(pairs);
    layers.push(parents);
    current = parents;
  }
  return layers;
};

/** Root of the regular Merkle tree over `values` (EMPTY_HASH for none). */
export const merkleRoot = (values: readonly Uint8Array[]): Buffer => new MerkleTree(values).root;

/** An in-memory LIP 0031 Merkle tree with proofs, append path and right witnesses. */
export class MerkleTree {
  #leaves: Buffer[];
  #layers?: Buffer[][];
  #locations?: Map<string, { layerIndex: number; nodeIndex: number }>;

  constructor(values: readonly Uint8Array[] = [], options: { preHashed?: boolean } = {}) {
    this.#leaves = options.preHashed === true ? values.map((v) => Buffer.from(v)) : leafHashes(values);
  }

  get size(): number {
    return this.#leaves.length;
  }

  get root(): Buffer {
    if (this.size === 0) return EMPTY_HASH;
    const layers = this.#getLayers();
    return layers[layers.length - 1][0];
  }

  append(value: Uint8Array): Buffer {
    this.#leaves.push(leafHash(value));
    this.#layers = undefined;
    this.#locations = undefined;
    return this.root;
  }

  /** Roots of the perfect subtrees of the binary decomposition of size, smallest first (LIP 0031 append path). */
  get appendPath(): Buffer[] {
    const path: Buffer[] = [];
    const layers = this.#getLayers();
    let start = this.size;
    for (let layer = 0; 2 ** layer <= this.size; layer++) {
      if (Math.floor(this.size / 2 ** layer) % 2 === 1) {
        start -= 2 ** layer;
        path.push(layers[layer][start / 2 ** layer]);
      }
    }
    return path;
  }

  #getLayers(): Buffer[][] {
    this.#layers ??= buildLayers(this.#leaves);
    return this.#layers;
  }

  #nodeAt(nodeIndex: number, layerIndex: number): Buffer {
    const hash = this.#getLayers()[layerIndex]?.[nodeIndex];
    if (hash === undefined)
      throw new Error(`Invalid tree state: no node ${nodeIndex} in layer ${layerIndex} for size ${this.size}`);
    return hash;
  }

  /** Proof indices of the queried node hashes (leaf or branch), 0 when a hash is not in the tree. */
  #indicesOf(queryHashes: readonly Uint8Array[]): number[] {
    let locations = this.#locations;
    if (locations === undefined) {
      locations = new Map();
      for (const [layerIndex, layer] of this.#getLayers().entries())
        for (const [nodeIndex, hash] of layer.entries()) locations.set(hash.toString('hex'), { layerIndex, nodeIndex });
      this.#locations = locations;
    }
    const height = treeHeight(this.size);
    return queryHashes.map((q) => {
      const loc = locations.get(Buffer.from(q).toString('hex'));
      return loc === undefined ? 0 : toIndex(loc.nodeIndex, loc.layerIndex, height);
    });
  }

  generateProof(queryHashes: readonly Uint8Array[]): MerkleProof {
    if (this.size === 0) return { size: 0, idxs: [], siblingHashes: [] };
    const idxs = this.#indicesOf(queryHashes);
    return { size: this.size, idxs, siblingHashes: this.#siblingHashes(idxs) };
  }

  #siblingHashes(idxs: readonly number[]): Buffer[] {
    const size = this.size;
    const height = treeHeight(size);
    const structure = layerStructure(size);
    const original = new Set(idxs);
    let sorted = idxs.filter((i) => i !== 0).sort(compareIndices);
    const out: Buffer[] = [];
    const moveUp = (idx: number): void => {
      sorted = sorted.filter((i) => i !== idx);
      insertIndex(sorted, Math.floor(idx / 2));
    };
    while (sorted.length > 0) {
      const idx = sorted[0];
      const next = sorted[1];
      if (
        idx % 2 === 0 &&
        next !== undefined &&
        Math.floor(Math.log2(idx)) === Math.floor(Math.log2(next)) &&
        (idx ^ next) === 1
      ) {
        sorted = sorted.slice(2);
        insertIndex(sorted, Math.floor(idx / 2));
        continue;
      }
      const loc = toLocation(idx, height);
      if (loc.layerIndex === height) return out;
      const sibling = siblingLocation(loc.nodeIndex, loc.layerIndex, size, structure);
      if (sibling !== undefined) {
        if (original.has(toIndex(sibling.nodeIndex, sibling.layerIndex, height))) {
          moveUp(idx);
          continue;
        }
        out.push(this.#nodeAt(sibling.nodeIndex, sibling.layerIndex));
      }
      moveUp(idx);
    }
    return out;
  }

  /** Hashes that, with the append path of the first `idx` leaves, give the root (LIP 0031 right witness). */
  generateRightWitness(idx: number): Buffer[] {
    if (!Number.isInteger(idx) || idx < 0 || idx > this.size) throw new Error('index out of range');
    if (idx === this.size) return [];
    if (idx === 0) return this.appendPath;
    const height = treeHeight(this.size);
    const structure = layerStructure(this.size);
    const witness: Buffer[] = [];
    let incremental = idx;
    for (let layer = 0; layer < height; layer++) {
      if (Math.floor(incremental / 2 ** layer) % 2 === 0) continue;
      const sibling = siblingLocation(Math.floor((idx - 1) / 2 ** layer), layer, this.size, structure);
      if (sibling === undefined) break;
      witness.push(this.#nodeAt(sibling.nodeIndex, sibling.layerIndex));
      incremental += 2 ** layer;
    }
    return witness;
  }
}

/** Appends one value given only the append path and size (used for inbox/outbox trees). */
export const appendToPath = (
  state: { appendPath: readonly Buffer[]; size: number },
  value: Uint8Array,
): { root: Buffer; appendPath: Buffer[]; size: number } => {
  const { appendPath, size } = state;
  const leaf = leafHash(value);
  let root = leaf;
  let used = 0;
  for (let bit = 0; 2 ** bit <= size; bit++) {
    if (Math.floor(size / 2 ** bit) % 2 === 1) root = branchHash(appendPath[used++], root);
  }
  // the new leaf merges with the subtrees of the trailing 1-bits of size
  let trailing = 0;
  while (Math.floor(size / 2 ** trailing) % 2 === 1) trailing++;
  let merged = leaf;
  for (let i = 0; i < trailing; i++) merged = branchHash(appendPath[i], merged);
  return { root, appendPath: [merged, ...appendPath.slice(trailing)], size: size + 1 };
};

export const verifyProof = (queryHashes: readonly Buffer[], proof: MerkleProof, root: Uint8Array): boolean => {
  if (proof.size === 0) return false;
  try {
    const computed = calculatePathNodes(queryHashes, proof.size, proof.idxs, proof.siblingHashes).get(ROOT_INDEX);
    return computed?.equals(root) === true;
  } catch {
    return false;
  }
};

/** The root after replacing the proven leaves with `updateData` (the proof's indices named `indexes`, as Klayr's API has it). */
export const calculateRootFromUpdateData = (
  updateData: readonly Uint8Array[],
  proof: { size: number; indexes: number[]; siblingHashes: Buffer[] },
): Buffer => {
  if (proof.size === 0 || proof.indexes.length === 0) throw new Error('Invalid proof.');
  if (updateData.length !== proof.indexes.length)
    throw new Error("Amount of update data doesn't match amount of indexes");
  const root = calculatePathNodes(updateData.map(leafHash), proof.size, proof.indexes, proof.siblingHashes).get(
    ROOT_INDEX,
  );
  if (root === undefined) throw new Error('Invalid proof.');
  return root;
};

const rootFromPath = (path: readonly Buffer[]): Buffer => {
  if (path.length === 0) throw new Error('Invalid append path');
  return path.slice(1).reduce((current, hash) => branchHash(hash, current), path[0]);
};

export const calculateRootFromRightWitness = (
  idx: number,
  appendPath: readonly Buffer[],
  rightWitness: readonly Buffer[],
): Buffer => {
  if (appendPath.length === 0) return rootFromPath(rightWitness);
  if (rightWitness.length === 0) return rootFromPath(appendPath);
  const path = appendPath.slice(1);
  const witness = rightWitness.slice(1);
  let current = branchHash(appendPath[0], rightWitness[0]);
  let layer = 0;
  let incremental = idx;
  let started = false;
  while (path.length > 0 || witness.length > 0) {
    if (path.length > 0 && Math.floor(idx / 2 ** layer) % 2 === 1) {
      if (!started) {
        incremental += 2 ** layer;
        started = true;
      } else {
        current = branchHash(path[0], current);
        path.shift();
      }
    }
    if (witness.length > 0 && Math.floor(incremental / 2 ** layer) % 2 === 1) {
      current = branchHash(current, witness[0]);
      witness.shift();
      incremental += 2 ** layer;
    }
    layer++;
  }
  return current;
};

export const verifyRightWitness = (
  idx: number,
  appendPath: readonly Buffer[],
  rightWitness: readonly Buffer[],
  root: Uint8Array,
): boolean => calculateRootFromRightWitness(idx, appendPath, rightWitness).equals(root);

/** The right witness for leaves appended after a tree of `size` leaves, from the appended values alone. */
export const calculateRightWitness = (size: number, values: readonly Uint8Array[]): Buffer[] => {
  if (size === 0) throw new Error('witness cannot be generated for empty tree.');
  let hashes = values.map(leafHash);
  const witness: Buffer[] = [];
  const height = treeHeight(size + hashes.length);
  let incremental = size;
  for (let layer = 0; layer < height && hashes.length > 0; layer++) {
    if (Math.floor(incremental / 2 ** layer) % 2 === 1) {
      witness.push(hashes[0]);
      hashes.shift();
      incremental += 2 ** layer;
    }
    const next: Buffer[] = [];
    for (let i = 0; i < hashes.length; i += 2)
      next.push(i + 1 < hashes.length ? branchHash(hashes[i], hashes[i + 1]) : hashes[i]);
    hashes = next;
  }
  return witness;
};

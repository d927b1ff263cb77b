import { branchHash } from './hash.js';

/** The root index of the proof index space: an index is 1 followed by the node's path bits. */
export const ROOT_INDEX = 2;

export interface Location {
  nodeIndex: number;
  layerIndex: number;
}

export const treeHeight = (size: number): number => Math.ceil(Math.log2(size)) + 1;

/** Per-layer node counts, layer 0 (leaves) up to the root layer. */
export const layerStructure = (size: number): number[] => {
  const structure: number[] = [];
  let max = size;
  let remainders = 0;
  for (let layer = 0; layer <= Math.ceil(Math.log2(size)); layer++) {
    structure.push(max);
    const next = remainders % 2 === 0 ? Math.floor(max / 2) : Math.ceil(max / 2);
    remainders += max % 2;
    max = next;
  }
  return structure;
};

/** The node paired with (nodeIndex, layerIndex) on its right or left; a missing sibling is looked for on lower layers. */
export const siblingLocation = (
  nodeIndex: number,
  layerIndex: number,
  size: number,
  structure = layerStructure(size),
): Location | undefined => {
  let siblingIndex = nodeIndex ^ 1;
  let siblingLayer = layerIndex;
  while (siblingIndex >= structure[siblingLayer] && siblingLayer > 0) {
    siblingIndex <<= 1;
    siblingLayer -= 1;
  }
  if (siblingIndex >= size) return undefined;
  return { nodeIndex: siblingIndex, layerIndex: siblingLayer };
};

export const toIndex = (nodeIndex: number, layerIndex: number, height: number): number => {
  const length = height - layerIndex;
  if (length <= 0) throw new Error(`Invalid height ${height} or layer index ${layerIndex}`);
  return 2 ** length + nodeIndex;
};

export const toLocation = (index: number, height: number): Location => {
  const bits = Math.floor(Math.log2(index));
  const layerIndex = height - bits;
  if (layerIndex < 0) throw new Error(`Invalid index ${index} with height ${height}`);
  return { nodeIndex: index - 2 ** bits, layerIndex };
};

const bitLength = (n: number): number => Math.floor(Math.log2(n)) + 1;
const isLeft = (index: number): boolean => index % 2 === 0;

/** Proof order: lower layers first (longer indices), then ascending index. */
export const compareIndices = (a: number, b: number): number => (bitLength(a) === bitLength(b) ? a - b : b - a);

export const insertIndex = (sorted: number[], value: number): void => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareIndices(value, sorted[mid]) <= 0) high = mid;
    else low = mid + 1;
  }
  if (sorted[low] !== value) sorted.splice(low, 0, value);
};

/**
 * Recomputes the path from the given nodes to the root with the sibling hashes in proof order;
 * returns every computed node by proof index (the root at ROOT_INDEX). Throws on inconsistent input.
 */
export const calculatePathNodes = (
  queryHashes: readonly Buffer[],
  size: number,
  idxs: readonly number[],
  siblingHashes: readonly Buffer[],
): Map<number, Buffer> => {
  if (queryHashes.length === 0 || idxs.length === 0)
    throw new Error('Invalid input. QueryHashes and Indexes must have at least one element.');
  if (queryHashes.length !== idxs.length) throw new Error('Invalid input. QueryHashes and Indexes must match.');
  const tree = new Map<number, Buffer>();
  const siblings = [...siblingHashes];
  let sorted: number[] = [];
  idxs.forEach((idx, i) => {
    if (idx === 0) return;
    sorted.push(idx);
    tree.set(idx, queryHashes[i]);
  });
  sorted.sort(compareIndices);
  const height = treeHeight(size);
  const structure = layerStructure(size);
  const carried = new Map<number, Buffer>();
  while (sorted.length > 0) {
    const idx = sorted[0];
    if (idx === ROOT_INDEX) return tree;
    const current = tree.get(idx) ?? carried.get(idx);
    if (current === undefined) throw new Error(`Invalid state. Hash for index ${idx} should exist.`);
    const parent = Math.floor(idx / 2);
    const loc = toLocation(idx, height);
    const sibling = siblingLocation(loc.nodeIndex, loc.layerIndex, size, structure);
    if (sibling !== undefined) {
      const siblingIdx = toIndex(sibling.nodeIndex, sibling.layerIndex, height);
      const siblingHash = tree.get(siblingIdx) ?? siblings.shift();
      if (siblingHash === undefined) throw new Error('Invalid proof: not enough sibling hashes.');
      const parentHash = isLeft(idx) ? branchHash(current, siblingHash) : branchHash(siblingHash, current);
      const existing = tree.get(parent);
      if (existing !== undefined && !existing.equals(parentHash))
        throw new Error('Invalid query hashes. Calculated parent hash does not match.');
      tree.set(parent, parentHash);
    } else {
      carried.set(parent, current);
    }
    sorted = sorted.slice(1);
    insertIndex(sorted, parent);
  }
  return tree;
};

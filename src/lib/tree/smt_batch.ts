import type { PairKind } from '../crypto/sha256_x4.js';
import { PAIR_JOB_BYTES } from '../crypto/sha256_x4.js';
import type { SMTNode } from './smt_node.js';
import { smtLeafHashInto } from './smt_node.js';
import { EMPTY_SLOT, leafForm, slotOf, treeHasher } from './smt_root.js';

/** A node an update creates, its hash not computed yet: numbered in creation order (children first). */
export type NewNode =
  | { readonly kind: 'leaf'; readonly id: number; readonly key: Buffer; readonly value: Buffer }
  | {
      readonly kind: 'branch';
      readonly id: number;
      readonly level: number;
      readonly left: TreeRef;
      readonly right: TreeRef;
    };

/**
 * A subtree that exists and that no change reaches: only its hash is needed, unless a change empties its
 * sibling (then whether it is a leaf decides where that leaf moves), so it is not read from storage.
 */
export interface StoredRef {
  readonly kind: 'stored';
  readonly hash: Buffer;
  readonly ref: Buffer;
}

/** A child as an update sees it: a node that exists (its hash known), the empty subtree, or a new node. */
export type TreeRef = SMTNode | StoredRef | NewNode;

export const isNew = (ref: TreeRef): ref is NewNode => 'id' in ref;

/** Levels above the leaves: a new branch is hashed after every new node below it. */
export const levelOf = (ref: TreeRef): number => (isNew(ref) ? (ref.kind === 'leaf' ? 0 : ref.level) : 0);

const KINDS = ['pair', 'constantLeft', 'constantRight'] as const satisfies readonly PairKind[];
const kindOf = (node: NewNode & { kind: 'branch' }): number =>
  node.left.kind === 'empty' ? 1 : node.right.kind === 'empty' ? 2 : 0;

/**
 * The hashes of the nodes an update created (`nodes[i].id === i`), computed in the 4-lane hasher: the
 * leaves (key || value, when the values are 32 bytes; else one by one) first, then the branches level
 * by level, each level's in runs of one kind (both children, or the empty subtree on one side).
 * An existing child's hash is copied into a slot of its own.
 */
export const hashNewNodes = (nodes: readonly NewNode[], keyLength: number): Buffer[] => {
  const n = nodes.length;
  if (n === 0) return [];
  let levels = 1;
  let known = 0;
  let leaves = 0;
  let batchLeaves = leafForm(keyLength) !== undefined;
  for (const node of nodes) {
    if (node.kind === 'leaf') {
      leaves++;
      if (node.value.length !== 32) batchLeaves = false;
      continue;
    }
    if (node.level + 1 > levels) levels = node.level + 1;
    if (!isNew(node.left) && node.left.kind !== 'empty') known++;
    if (!isNew(node.right) && node.right.kind !== 'empty') known++;
  }
  const counts = new Int32Array(KINDS.length * levels);
  for (const node of nodes) if (node.kind === 'branch') counts[kindOf(node) * levels + node.level]++;
  const starts = new Int32Array(counts.length);
  let jobs = 0;
  for (let level = 1; level < levels; level++)
    for (let kind = 0; kind < KINDS.length; kind++) {
      starts[kind * levels + level] = jobs;
      jobs += (counts[kind * levels + level] + 3) & ~3;
    }
  const form = leafForm(keyLength);
  const stride = form === undefined ? 0 : Math.ceil(form.length / 16) * 16;
  const inputsAt = slotOf(n + known);
  const jobsAt = inputsAt + (batchLeaves ? stride * leaves + 16 : 0);
  const leafJobsAt = jobsAt + jobs * PAIR_JOB_BYTES;
  const h = treeHasher(keyLength, leafJobsAt + (batchLeaves ? ((leaves + 3) & ~3) * PAIR_JOB_BYTES : 0));
  const { heap, words } = h;
  const cursor = Int32Array.from(starts);
  let nextKnown = n;
  const slotFor = (ref: TreeRef): number => {
    if (isNew(ref)) return slotOf(ref.id);
    if (ref.kind === 'empty') return EMPTY_SLOT;
    const slot = slotOf(nextKnown++);
    heap.set(ref.hash, slot);
    return slot;
  };
  let leaf = 0;
  const leafInput = Buffer.alloc(32);
  for (const node of nodes) {
    const out = slotOf(node.id);
    if (node.kind === 'leaf') {
      if (!batchLeaves) {
        smtLeafHashInto(leafInput, node.key, node.value);
        heap.set(leafInput, out);
        continue;
      }
      const at = inputsAt + stride * leaf;
      heap.set(node.key, at);
      heap.set(node.value, at + node.key.length);
      const w = (leafJobsAt >> 2) + 3 * leaf++;
      words[w] = at;
      words[w + 2] = out;
      continue;
    }
    const w = (jobsAt >> 2) + 3 * cursor[kindOf(node) * levels + node.level]++;
    words[w] = slotFor(node.left);
    words[w + 1] = slotFor(node.right);
    words[w + 2] = out;
  }
  if (batchLeaves) h.hashInputs(leafJobsAt, leaves);
  for (let level = 1; level < levels; level++)
    for (let kind = 0; kind < KINDS.length; kind++) {
      const run = kind * levels + level;
      h.hashPairs(jobsAt + starts[run] * PAIR_JOB_BYTES, counts[run], KINDS[kind]);
    }
  const hashes = Buffer.from(heap.subarray(slotOf(0), slotOf(n)));
  return nodes.map((_, i) => hashes.subarray(32 * i, 32 * i + 32));
};

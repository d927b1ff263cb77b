import { getOrCreate } from '../lib/collections.js';
import { STATE_SMT_KEY_LENGTH } from '../lib/state/keys.js';
import type { SMTProof } from '../lib/tree/index.js';
import { EMPTY_ROOT_REF, refHash, SparseMerkleTree } from '../lib/tree/index.js';
import type { KestrelDatabases } from './database.js';
import { openDatabases } from './database.js';
import { readLatestRootRef, readRootRefAt } from './state_roots.js';

/** Committed state as a worker reads it: a root it checked, and proofs against that root. */
export interface StateSnapshot {
  readonly root: Buffer;
  /** Proves state tree keys (stateSMTKey of store keys). */
  prove(treeKeys: readonly Buffer[]): SMTProof;
}

export class SnapshotMismatchError extends Error {
  override readonly name = 'SnapshotMismatchError';
}

/** The state tree over each environment's `smt` database, made once. */
const trees = new WeakMap<KestrelDatabases['smt'], SparseMerkleTree>();

/**
 * Inclusion/non-inclusion proof of state tree keys (stateSMTKey of a store key) against a committed root, given by
 * its reference (tree nodes are never overwritten, so older roots stay provable).
 */
const proveTreeKeys = (dbs: Pick<KestrelDatabases, 'smt'>, rootRef: Buffer, treeKeys: readonly Buffer[]): SMTProof =>
  getOrCreate(
    trees,
    dbs.smt,
    (smt) => new SparseMerkleTree(STATE_SMT_KEY_LENGTH, { get: (ref) => smt.get(ref) }),
  ).prove(rootRef, treeKeys);

/**
 * The committed state at `height` (the last committed one when undefined), checked against the
 * root the caller expects: a store that moved on (or back) since the caller read it is refused.
 */
export const checkedSnapshot = (
  dbs: KestrelDatabases,
  height: number | undefined,
  expectedRoot: Buffer,
): StateSnapshot => {
  const rootRef = (height === undefined ? readLatestRootRef(dbs) : readRootRefAt(dbs, height)) ?? EMPTY_ROOT_REF;
  const root = refHash(rootRef);
  if (!root.equals(expectedRoot)) {
    throw new SnapshotMismatchError(
      `Snapshot mismatch at height ${String(height)}: the store has root ${root.toString('hex')}, expected ${expectedRoot.toString('hex')}`,
    );
  }
  return { root, prove: (treeKeys) => proveTreeKeys(dbs, rootRef, treeKeys) };
};

const readOnly = new Map<string, KestrelDatabases>();

/** The data path's environment opened read-only, once per thread (a worker's view of what the node commits). */
export const openReadOnly = (dataPath: string): KestrelDatabases =>
  getOrCreate(readOnly, dataPath, (path) => openDatabases(path, { readOnly: true }));

/** checkedSnapshot over the data path's read-only environment. */
export const readOnlySnapshot = (dataPath: string, height: number | undefined, expectedRoot: Buffer): StateSnapshot =>
  checkedSnapshot(openReadOnly(dataPath), height, expectedRoot);

/** A proof request as the `proofs` pool's threads take it: keys proved at a committed height whose root the caller names. */
export interface StateProofRequest {
  dataPath: string;
  /** The committed height to prove at (undefined: the latest). */
  height?: number;
  /** The root the caller expects at that height; the prover refuses to answer from any other. */
  expectedRoot: Uint8Array;
  keys: Uint8Array[];
}

export interface StateProofResponse extends SMTProof {
  root: Buffer;
}

/** Proves store keys against a committed state root, reading the node's LMDB environment read-only (on whichever thread calls it). */
export const proveState = (request: StateProofRequest): StateProofResponse => {
  const snapshot = readOnlySnapshot(request.dataPath, request.height, Buffer.from(request.expectedRoot));
  const proof = snapshot.prove(request.keys.map((k) => Buffer.from(k)));
  return { root: snapshot.root, siblingHashes: proof.siblingHashes, queries: proof.queries };
};

// Piscina task: proves store keys against a committed state root, reading the node's LMDB environment read-only.
import { getOrCreate } from '../lib/collections.js';
import { EMPTY_HASH } from '../lib/tree/index.js';
import { StateDB } from '../engine/state/state_db.js';
import { openDatabases } from '../engine/storage/database.js';
import type { StateProofRequest, StateProofResponse } from './state_prover.js';

const opened = new Map<string, StateDB>();

const stateAt = (dataPath: string): StateDB => getOrCreate(opened, dataPath, (path) => new StateDB(openDatabases(path, { readOnly: true })));

export const proveState = (request: StateProofRequest): StateProofResponse => {
  const db = stateAt(request.dataPath);
  const root = request.height === undefined ? db.root : db.rootAt(request.height) ?? EMPTY_HASH;
  const expected = Buffer.from(request.expectedRoot);
  if (!root.equals(expected)) {
    throw new Error(`Snapshot mismatch at height ${String(request.height)}: the store has root ${root.toString('hex')}, expected ${expected.toString('hex')}`);
  }
  const proof = db.prove(root, request.keys.map((k) => Buffer.from(k)));
  return { root, siblingHashes: proof.siblingHashes, queries: proof.queries };
};

export default proveState;

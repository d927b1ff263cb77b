// Piscina task: proves store keys against a committed state root, reading the node's LMDB environment read-only (once per thread).
import type { SMTProof } from '../lib/tree/index.js';
import { readOnlySnapshot } from '../storage/snapshot.js';

export default (request: { dataPath: string; height?: number; expectedRoot: Uint8Array; keys: Uint8Array[] }): SMTProof & { root: Buffer } => {
  const snapshot = readOnlySnapshot(request.dataPath, request.height, Buffer.from(request.expectedRoot));
  const proof = snapshot.prove(request.keys.map((k) => Buffer.from(k)));
  return { root: snapshot.root, siblingHashes: proof.siblingHashes, queries: proof.queries };
};

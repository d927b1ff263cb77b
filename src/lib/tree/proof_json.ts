import type { SMTProof } from './smt.js';

/** A sparse Merkle proof as Klayr's endpoints answer it: hex sibling hashes and queries. */
export const proofToJSON = (proof: SMTProof) => ({
  siblingHashes: proof.siblingHashes.map((h) => h.toString('hex')),
  queries: proof.queries.map((q) => ({
    bitmap: q.bitmap.toString('hex'),
    key: q.key.toString('hex'),
    value: q.value.toString('hex'),
  })),
});

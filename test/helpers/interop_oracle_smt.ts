// klayr-framework's interoperability commands check state proofs with @liskhq/lisk-db's
// SparseMerkleTree, whose native binary test/helpers/klayr.ts stubs. This gives lisk-db the
// proof checks in JavaScript: Kestrel's LIP 0039 verifier (checked against lisk-db's own vectors in
// test/lib/smt.test.ts) under lisk-db's inclusion rule (lisk-db utils.isInclusionProofForQueryKey).
import { createRequire } from 'node:module';
import './klayr.js';
import type { SMTProof, SMTQuery } from '../../src/lib/tree/index.js';
import { calculateSMTRoot, verifySMTProof } from '../../src/lib/tree/index.js';

const require = createRequire(import.meta.url);
const liskDB = require('@liskhq/lisk-db') as { SparseMerkleTree: unknown };
const { isInclusionProofForQueryKey } = require('@liskhq/lisk-db/utils') as {
  isInclusionProofForQueryKey: (key: Buffer, query: SMTQuery) => boolean;
};

class ProofOnlySparseMerkleTree {
  constructor(readonly keyLength = 38) {}
  async verify(root: Buffer, queries: Buffer[], proof: SMTProof): Promise<boolean> {
    return verifySMTProof(queries, proof, root, this.keyLength);
  }
  async verifyInclusionProof(root: Buffer, queries: Buffer[], proof: SMTProof): Promise<boolean> {
    if (
      queries.some((key, i) => proof.queries[i] === undefined || !isInclusionProofForQueryKey(key, proof.queries[i]!))
    )
      return false;
    return this.verify(root, queries, proof);
  }
  async verifyNonInclusionProof(root: Buffer, queries: Buffer[], proof: SMTProof): Promise<boolean> {
    if (queries.some((key, i) => proof.queries[i] === undefined || isInclusionProofForQueryKey(key, proof.queries[i]!)))
      return false;
    return this.verify(root, queries, proof);
  }
  async calculateRoot(proof: SMTProof): Promise<Buffer> {
    return calculateSMTRoot(proof.siblingHashes, proof.queries);
  }
}

liskDB.SparseMerkleTree = ProofOnlySparseMerkleTree;

import { STATE_SMT_KEY_LENGTH } from '../../../lib/state/keys.js';
import type { SMTQuery } from '../../../lib/tree/index.js';
import { isInclusionProofForKey, verifySMTProof } from '../../../lib/tree/index.js';

/** lisk-db's SparseMerkleTree().verifyInclusionProof over state tree keys: every query proves its key is in the tree under `root`. */
export const verifyStateInclusionProof = (
  root: Buffer,
  queryKeys: readonly Buffer[],
  proof: { siblingHashes: Buffer[]; queries: SMTQuery[] },
): boolean => {
  if (queryKeys.some((key, i) => proof.queries[i] === undefined || !isInclusionProofForKey(key, proof.queries[i])))
    return false;
  return verifySMTProof(queryKeys, proof, root, STATE_SMT_KEY_LENGTH);
};

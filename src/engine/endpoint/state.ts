import { parseHex } from '../../lib/crypto/bytes.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import { hexBytes } from '../../lib/endpoint/params.js';
import { STATE_SMT_KEY_LENGTH } from '../../lib/state/keys.js';
import { proofToJSON } from '../../lib/tree/proof_json.js';
import type { Chain } from '../chain/chain.js';
import type { StateProver } from '../pools/state_prover.js';

/** The state namespace: inclusion proofs of state tree keys against the tip's state root, computed in a worker. */
export const stateEndpoints = (
  chain: Chain,
  prover: StateProver,
  dataPath: string,
): Record<string, EndpointDefinition> => ({
  prove: {
    description:
      "A proof of state tree keys (store prefix || substore prefix || SHA-256 of the store key, as lisk-db's StateDB.prove takes them) against the stateRoot of the last block.",
    params: {
      type: 'object',
      required: ['queryKeys'],
      properties: { queryKeys: { type: 'array', items: hexBytes(STATE_SMT_KEY_LENGTH) } },
    },
    handler: async ({ params }) => {
      const { height, stateRoot } = chain.lastBlock().header;
      const keys = (params.queryKeys as string[]).map((k) => parseHex(k, 'queryKeys item'));
      // the pool's threads read LMDB: while synced blocks are still being written behind, this thread proves
      if (chain.hasPendingWrites()) return { proof: proofToJSON(chain.proveState(height, stateRoot, keys)) };
      const { siblingHashes, queries } = await prover.prove({ dataPath, height, expectedRoot: stateRoot, keys });
      return { proof: proofToJSON({ siblingHashes, queries }) };
    },
  },
});

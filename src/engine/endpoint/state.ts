import { parseHex } from '../../lib/crypto/bytes.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import { hexBetween } from '../../lib/endpoint/params.js';
import { proofToJSON } from '../../lib/tree/proof_json.js';

/** Store prefix (4 bytes) and substore prefix (2) before the key; no store key comes near 250 bytes. */
const STATE_KEY_PREFIX_BYTES = 6;
const MAX_STATE_KEY_BYTES = 256;

import type { Chain } from '../chain/chain.js';
import type { StateProver } from '../pools/state_prover.js';

/** The state namespace: inclusion proofs of store keys against the tip's state root, computed in a worker. */
export const stateEndpoints = (
  chain: Chain,
  prover: StateProver,
  dataPath: string,
): Record<string, EndpointDefinition> => ({
  prove: {
    description:
      'A proof of state store keys (store prefix || substore prefix || key) against the stateRoot of the last block.',
    params: {
      type: 'object',
      required: ['queryKeys'],
      properties: { queryKeys: { type: 'array', items: hexBetween(STATE_KEY_PREFIX_BYTES, MAX_STATE_KEY_BYTES) } },
    },
    handler: async ({ params }) => {
      const { height, stateRoot } = chain.lastBlock().header;
      const keys = (params.queryKeys as string[]).map((k) => parseHex(k, 'queryKeys item'));
      if (keys.some((k) => k.length < 6))
        throw new Error('A state key is at least 6 bytes: store prefix and substore prefix.');
      // the pool's threads read LMDB: while synced blocks are still being written behind, this thread proves
      if (chain.hasPendingWrites()) return { proof: proofToJSON(chain.proveState(height, stateRoot, keys)) };
      const { siblingHashes, queries } = await prover.prove({ dataPath, height, expectedRoot: stateRoot, keys });
      return { proof: proofToJSON({ siblingHashes, queries }) };
    },
  },
});

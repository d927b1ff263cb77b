import { parseHex } from '../../lib/crypto/bytes.js';
import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { hexBytes } from '../../rpc/params.js';
import { legacyAccountStoreSchema, legacyAddressOf, legacyStore } from './commands.js';

/** Klayr Core's legacy module reader: the unclaimed legacy balance of a public key (0 when there is none). */
export const legacyEndpoints = (state: () => StoreAccess): Record<string, EndpointDefinition> => ({
  getLegacyAccount: {
    params: { type: 'object', required: ['publicKey'], properties: { publicKey: hexBytes(32) } },
    handler: ({ params }) => {
      const legacyAddress = legacyAddressOf(parseHex(params.publicKey, 'publicKey', 32));
      const account = legacyStore(state()).getWithSchema<{ balance: bigint }>(legacyAddress, legacyAccountStoreSchema);
      return { legacyAddress: legacyAddress.toString('hex'), balance: (account?.balance ?? 0n).toString() };
    },
  },
});

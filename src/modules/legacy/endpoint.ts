import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import { endpointSchema, hex } from '../../lib/endpoint/metadata.js';
import { hexBytes } from '../../lib/endpoint/params.js';
import { legacyAccountStoreSchema, legacyAddressOf, legacyStore } from './stores.js';

/** Klayr Core's legacy module reader: the unclaimed legacy balance of a public key (0 when there is none). */
export const legacyEndpoints = (state: () => StoreAccess): Endpoints => ({
  getLegacyAccount: {
    params: { type: 'object', required: ['publicKey'], properties: { publicKey: hexBytes(32) } },
    handler: ({ params }) => {
      const legacyAddress = legacyAddressOf(parseHex(params.publicKey, 'publicKey', 32));
      const account = legacyStore(state()).getWithSchema<{ balance: bigint }>(legacyAddress, legacyAccountStoreSchema);
      return { legacyAddress: legacyAddress.toString('hex'), balance: (account?.balance ?? 0n).toString() };
    },
  },
});

/** As klayr-core 4.0's LegacyModule.metadata(): its one endpoint. */
export const LEGACY_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'getLegacyAccount',
      request: endpointSchema('/legacy/endpoint/legacyAccountRequest', { publicKey: hex }, ['publicKey']),
      response: legacyAccountStoreSchema,
    },
  ],
};

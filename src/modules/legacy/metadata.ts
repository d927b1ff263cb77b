import { endpointSchema, hex } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { legacyAccountStoreSchema, MODULE_NAME } from './commands.js';

/** As klayr-core 4.0's LegacyModule.metadata(): its one endpoint, and no stores (it lists none, though it has one). */
export const legacyMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [],
  endpoints: [
    {
      name: 'getLegacyAccount',
      request: endpointSchema('/legacy/endpoint/legacyAccountRequest', { publicKey: hex }, ['publicKey']),
      response: legacyAccountStoreSchema,
    },
  ],
};

import { computeStorePrefix } from '../../lib/state/keys.js';
import { booleanType, hex, hexOfLength, storeMetadata } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { blsKeyDataSchema, validatorKeysSchema, validatorsParamsSchema } from './schemas.js';
import { MODULE_NAME, VALIDATORS_STORES } from './stores.js';

const storePrefix = computeStorePrefix(MODULE_NAME);

export const validatorsMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [
    storeMetadata(storePrefix, VALIDATORS_STORES.validatorKeys, validatorKeysSchema),
    storeMetadata(storePrefix, VALIDATORS_STORES.validatorsParams, validatorsParamsSchema),
    storeMetadata(storePrefix, VALIDATORS_STORES.blsKeys, blsKeyDataSchema),
  ],
  endpoints: [
    {
      name: 'validateBLSKey',
      request: {
        $id: '/validators/endpoint/validateBLSKeyRequest',
        title: 'Bls Key Properties',
        type: 'object',
        properties: { proofOfPossession: hexOfLength(192), blsKey: hexOfLength(96) },
        required: ['proofOfPossession', 'blsKey'],
      },
      response: { $id: '/validators/endpoint/validateBLSKeyResponse', title: 'Bls Key Properties', type: 'object', properties: { valid: booleanType }, required: ['valid'] },
    },
    {
      name: 'getValidator',
      // Klayr publishes the address with dataType (not type) 'string'
      request: { $id: '/validators/endpoint/getValidatorRequest', title: 'Validator properties', type: 'object', properties: { address: { dataType: 'string', format: 'klayr32' } }, required: ['address'] },
      response: { $id: '/validators/endpoint/getValidatorResponse', title: 'Validator properties', type: 'object', properties: { generatorKey: hex, blsKey: hex }, required: ['generatorKey', 'blsKey'] },
    },
  ],
};

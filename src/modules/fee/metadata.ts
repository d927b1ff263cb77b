import { endpointSchema, hex, uint32Integer } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { MODULE_NAME } from './module.js';

export const feeMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [],
  endpoints: [
    { name: 'getMinFeePerByte', response: endpointSchema('/fee/endpoint/getMinFeePerByteResponse', { minFeePerByte: uint32Integer }, ['minFeePerByte']) },
    { name: 'getFeeTokenID', response: endpointSchema('/fee/endpoint/getFeeTokenIDResponseSchema', { feeTokenID: hex }, ['feeTokenID']) },
  ],
};

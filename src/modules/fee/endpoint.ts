import type { EndpointDeclarations } from '../../engine/state_machine/module.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import { endpointSchema, hex, uint32Integer } from '../../lib/endpoint/metadata.js';
import type { FeeConfig } from './config.js';

export const feeEndpoints = (config: FeeConfig): Endpoints => ({
  getFeeTokenID: { constant: true, handler: () => ({ tokenID: config.feeTokenID.toString('hex') }) },
  getMinFeePerByte: { constant: true, handler: () => ({ minFeePerByte: config.minFeePerByte }) },
});

/** The fee endpoints as Klayr's metadata publishes them. */
export const FEE_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'getMinFeePerByte',
      response: endpointSchema('/fee/endpoint/getMinFeePerByteResponse', { minFeePerByte: uint32Integer }, [
        'minFeePerByte',
      ]),
    },
    {
      name: 'getFeeTokenID',
      response: endpointSchema('/fee/endpoint/getFeeTokenIDResponseSchema', { feeTokenID: hex }, ['feeTokenID']),
    },
  ],
};

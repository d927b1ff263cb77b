import type { EndpointDeclarations, StoreAccess } from '../../../engine/state_machine/module.js';
import type { Endpoints } from '../../../lib/endpoint/definition.js';
import { hexOfLength } from '../../../lib/endpoint/metadata.js';
import { required } from '../../../lib/required.js';
import { getMainchainID } from '../base/utils.js';
import { INTEROPERABILITY_ENDPOINTS, mainchainInteroperabilityEndpoints } from '../endpoint.js';

/** The endpoints every interoperability module serves; the mainchain adds registration fee, message fee and availability checks. */
const BASE_ENDPOINTS = [
  'getChainAccount',
  'getAllChainAccounts',
  'getChannel',
  'getOwnChainAccount',
  'getTerminatedStateAccount',
  'getTerminatedOutboxAccount',
  'getChainValidators',
] as const;

const chainIDParams = { type: 'object', required: ['chainID'], properties: { chainID: hexOfLength(8) } } as const;

/** The sidechain interoperability endpoints (Klayr's SidechainInteroperabilityEndpoint): the base set and getMainchainID. */
export const sidechainInteroperabilityEndpoints = (state: () => StoreAccess): Endpoints => {
  const all = mainchainInteroperabilityEndpoints(state);
  const endpoints: Endpoints = {};
  for (const name of BASE_ENDPOINTS) endpoints[name] = all[name];
  endpoints.getMainchainID = {
    params: chainIDParams,
    handler: ({ params }) => ({
      mainchainID: getMainchainID(Buffer.from(params.chainID as string, 'hex')).toString('hex'),
    }),
  };
  endpoints.getCCMSchema = all.getCCMSchema;
  return endpoints;
};

const published = (name: string) =>
  required(
    INTEROPERABILITY_ENDPOINTS.published.find((e) => e.name === name),
    `The interoperability endpoint declaration ${name}`,
  );

/** As Klayr's sidechain metadata() lists them. */
export const SIDECHAIN_INTEROPERABILITY_ENDPOINTS: EndpointDeclarations = {
  published: [
    ...BASE_ENDPOINTS.map(published),
    {
      name: 'getMainchainID',
      request: {
        $id: '/modules/interoperability/endpoint/getMainchainIDRequestSchema',
        type: 'object',
        required: ['chainID'],
        properties: { chainID: hexOfLength(8) },
      },
      response: {
        $id: '/modules/interoperability/endpoint/getMainchainIDResponseSchema',
        type: 'object',
        required: ['mainchainID'],
        properties: { result: { type: 'string' } },
      },
    },
    published('getCCMSchema'),
  ],
};

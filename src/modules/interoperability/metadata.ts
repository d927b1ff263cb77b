import { validatorsHashInputSchema } from '../../lib/chain/validators_hash.js';
import { booleanType, endpointSchema, hexOfLength, storeMetadata, stringType } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { INTEROP_STORES, MODULE_NAME, outboxRootSchema, STORE_PREFIX } from './genesis.js';
import { ccmSchema, chainAccountSchema, chainValidatorsSchema, channelDataSchema, ownChainAccountSchema, registeredNamesSchema, terminatedOutboxSchema, terminatedStateSchema } from './schemas.js';

const id = (name: string) => `/modules/interoperability/${name}`;
// Klayr publishes this one request schema for every endpoint that takes a chain ID (getAllChainAccounts included)
const chainIDRequest = endpointSchema(id('endpoint/getChainAccountRequest'), { chainID: hexOfLength(8) }, ['chainID']);
const result = (name: string) => endpointSchema(id(`endpoint/${name}`), { result: booleanType }, ['result']);
const uint32 = (fieldNumber: number) => ({ dataType: 'uint32', fieldNumber }) as const;
const hexField = (fieldNumber: number) => ({ dataType: 'string', format: 'hex', fieldNumber }) as const;

/** A chain account as JSON: hex roots, and no length limits on the name. */
const chainAccountJSON = {
  type: 'object',
  required: ['name', 'lastCertificate', 'status'],
  properties: {
    name: { dataType: 'string', fieldNumber: 1 },
    lastCertificate: {
      type: 'object',
      fieldNumber: 2,
      required: ['height', 'timestamp', 'stateRoot', 'validatorsHash'],
      properties: { height: uint32(1), timestamp: uint32(2), stateRoot: hexField(3), validatorsHash: hexField(4) },
    },
    status: uint32(3),
  },
} as const;

export const interoperabilityMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [
    storeMetadata(STORE_PREFIX, INTEROP_STORES.outboxRoot, outboxRootSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.chainAccount, chainAccountSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.ownChainAccount, ownChainAccountSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.channelData, channelDataSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.chainValidators, chainValidatorsSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.terminatedState, terminatedStateSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.terminatedOutbox, terminatedOutboxSchema),
    storeMetadata(STORE_PREFIX, INTEROP_STORES.registeredNames, registeredNamesSchema),
  ],
  endpoints: [
    { name: 'getChainAccount', request: chainIDRequest, response: chainAccountSchema },
    { name: 'getAllChainAccounts', request: chainIDRequest, response: endpointSchema(id('allChainAccounts'), { chains: { type: 'array', items: chainAccountJSON } }, ['chains']) },
    { name: 'getChannel', request: chainIDRequest, response: channelDataSchema },
    { name: 'getOwnChainAccount', response: ownChainAccountSchema },
    { name: 'getTerminatedStateAccount', request: chainIDRequest, response: terminatedStateSchema },
    { name: 'getTerminatedOutboxAccount', request: chainIDRequest, response: terminatedOutboxSchema },
    { name: 'getRegistrationFee', response: endpointSchema(id('mainchain/registrationFee'), { registrationFee: stringType }, ['registrationFee']) },
    { name: 'getMinimumMessageFee', response: endpointSchema(id('mainchain/minimumMessageFeeResponse'), { fee: stringType }, ['fee']) },
    { name: 'getChainValidators', request: chainIDRequest, response: { ...validatorsHashInputSchema, $id: id('validatorsHashInput') } },
    { name: 'isChainIDAvailable', request: chainIDRequest, response: result('isChainIDAvailableResponseSchema') },
    {
      name: 'isChainNameAvailable',
      request: endpointSchema(id('endpoint/isChainNameAvailableRequest'), { name: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: 32 } }, ['name']),
      response: result('isChainNameAvailableResponseSchema'),
    },
    { name: 'getCCMSchema', response: endpointSchema(id('endpoint/getCCMSchemaResponseSchema'), { schema: ccmSchema }, ['schema']) },
  ],
};

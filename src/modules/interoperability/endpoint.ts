import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { validatorsHashInputSchema } from '../../lib/chain/validators_hash.js';
import type { Schema } from '../../lib/codec/index.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import { booleanType, endpointSchema, hexOfLength, stringType } from '../../lib/endpoint/metadata.js';
import { computeSubstorePrefix } from '../../lib/state/keys.js';
import { CHAIN_REGISTRATION_FEE, MIN_RETURN_FEE_PER_BYTE } from './base/constants.js';
import { invalidNameError, isValidName } from './base/utils.js';
import {
  ccmSchema,
  chainAccountSchema,
  chainValidatorsSchema,
  channelDataSchema,
  ownChainAccountSchema,
  terminatedOutboxSchema,
  terminatedStateSchema,
} from './schemas.js';
import { INTEROP_STORES, STORE_PREFIX } from './stores.js';

const store = (view: StoreAccess, name: keyof typeof INTEROP_STORES) =>
  view.store(STORE_PREFIX, computeSubstorePrefix(INTEROP_STORES[name]));
const ownAccount = (view: StoreAccess) => {
  const own = store(view, 'ownChainAccount');
  const account = own.getWithSchema<{ name: string; chainID: Buffer; nonce: bigint }>(
    Buffer.alloc(0),
    ownChainAccountSchema,
  );
  if (account === undefined) throw own.notFound(Buffer.alloc(0));
  return account;
};

const chainIDParams = {
  type: 'object',
  required: ['chainID'],
  properties: { chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 } },
} as const;
type Box = { appendPath: Buffer[]; size: number; root: Buffer };
const boxJSON = (box: Box) => ({
  appendPath: box.appendPath.map((a) => a.toString('hex')),
  root: box.root.toString('hex'),
  size: box.size,
});

/** A store entry for a chain ID, or Klayr's error when there is none. */
const entry = <T>(view: StoreAccess, name: keyof typeof INTEROP_STORES, chainID: string, schema: Schema): T => {
  const substore = store(view, name);
  const key = Buffer.from(chainID, 'hex');
  const value = substore.getWithSchema<T>(key, schema);
  if (value === undefined) throw substore.notFound(key);
  return value;
};

interface ChainAccount {
  name: string;
  status: number;
  lastCertificate: { height: number; timestamp: number; stateRoot: Buffer; validatorsHash: Buffer };
}
const chainAccountJSON = ({ name, status, lastCertificate }: ChainAccount) => ({
  lastCertificate: {
    height: lastCertificate.height,
    timestamp: lastCertificate.timestamp,
    stateRoot: lastCertificate.stateRoot.toString('hex'),
    validatorsHash: lastCertificate.validatorsHash.toString('hex'),
  },
  name,
  status,
});

/** The mainchain interoperability endpoints, as klayr-framework answers them. */
export const mainchainInteroperabilityEndpoints = (state: () => StoreAccess): Endpoints => ({
  getChainAccount: {
    params: chainIDParams,
    handler: ({ params }) =>
      chainAccountJSON(entry<ChainAccount>(state(), 'chainAccount', params.chainID as string, chainAccountSchema)),
  },
  getAllChainAccounts: {
    params: chainIDParams,
    handler: ({ params }) => ({
      chains: store(state(), 'chainAccount')
        .iterateWithSchema<ChainAccount>(
          { gte: Buffer.from(params.chainID as string, 'hex'), lte: Buffer.alloc(4, 255) },
          chainAccountSchema,
        )
        .map(({ value }) => chainAccountJSON(value)),
    }),
  },
  getChannel: {
    params: chainIDParams,
    handler: ({ params }) => {
      const channel = entry<{
        inbox: Box;
        outbox: Box;
        partnerChainOutboxRoot: Buffer;
        messageFeeTokenID: Buffer;
        minReturnFeePerByte: bigint;
      }>(state(), 'channelData', params.chainID as string, channelDataSchema);
      return {
        messageFeeTokenID: channel.messageFeeTokenID.toString('hex'),
        outbox: boxJSON(channel.outbox),
        inbox: boxJSON(channel.inbox),
        partnerChainOutboxRoot: channel.partnerChainOutboxRoot.toString('hex'),
        minReturnFeePerByte: channel.minReturnFeePerByte.toString(),
      };
    },
  },
  getTerminatedStateAccount: {
    params: chainIDParams,
    handler: ({ params }) => {
      const account = entry<{ stateRoot: Buffer; initialized: boolean; mainchainStateRoot: Buffer }>(
        state(),
        'terminatedState',
        params.chainID as string,
        terminatedStateSchema,
      );
      return {
        stateRoot: account.stateRoot.toString('hex'),
        initialized: account.initialized,
        mainchainStateRoot: account.mainchainStateRoot.toString('hex'),
      };
    },
  },
  getTerminatedOutboxAccount: {
    params: chainIDParams,
    handler: ({ params }) => {
      const account = entry<{ outboxRoot: Buffer; outboxSize: number; partnerChainInboxSize: number }>(
        state(),
        'terminatedOutbox',
        params.chainID as string,
        terminatedOutboxSchema,
      );
      return {
        outboxRoot: account.outboxRoot.toString('hex'),
        outboxSize: account.outboxSize,
        partnerChainInboxSize: account.partnerChainInboxSize,
      };
    },
  },
  getChainValidators: {
    params: chainIDParams,
    handler: ({ params }) => {
      const view = state();
      if (!store(view, 'chainAccount').has(Buffer.from(params.chainID as string, 'hex')))
        throw new Error('Chain account does not exist.');
      const validators = entry<{
        activeValidators: { blsKey: Buffer; bftWeight: bigint }[];
        certificateThreshold: bigint;
      }>(view, 'chainValidators', params.chainID as string, chainValidatorsSchema);
      return {
        activeValidators: validators.activeValidators.map((v) => ({
          blsKey: v.blsKey.toString('hex'),
          bftWeight: v.bftWeight.toString(),
        })),
        certificateThreshold: validators.certificateThreshold.toString(),
      };
    },
  },
  getCCMSchema: { constant: true, handler: () => ({ schema: ccmSchema }) },
  getRegistrationFee: { constant: true, handler: () => ({ fee: CHAIN_REGISTRATION_FEE.toString() }) },
  getMinimumMessageFee: { constant: true, handler: () => ({ fee: MIN_RETURN_FEE_PER_BYTE.toString() }) },
  getOwnChainAccount: {
    handler: () => {
      const { chainID, name, nonce } = ownAccount(state());
      return { chainID: chainID.toString('hex'), name, nonce: nonce.toString() };
    },
  },
  isChainIDAvailable: {
    params: {
      type: 'object',
      required: ['chainID'],
      properties: { chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 } },
    },
    handler: ({ params }) => {
      const view = state();
      const chainID = Buffer.from(params.chainID as string, 'hex');
      const own = ownAccount(view).chainID;
      if (chainID[0] !== own[0] || chainID.equals(own)) return { result: false };
      return { result: !store(view, 'chainAccount').has(chainID) };
    },
  },
  isChainNameAvailable: {
    params: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 32 } },
    },
    handler: ({ params }) => {
      const name = params.name as string;
      if (!isValidName(name)) throw invalidNameError();
      return { result: !store(state(), 'registeredNames').has(Buffer.from(name, 'ascii')) };
    },
  },
});

const id = (name: string) => `/modules/interoperability/${name}`;
// Klayr publishes this one request schema for every endpoint that takes a chain ID (getAllChainAccounts included)
const chainIDRequest = endpointSchema(id('endpoint/getChainAccountRequest'), { chainID: hexOfLength(8) }, ['chainID']);
const result = (name: string) => endpointSchema(id(`endpoint/${name}`), { result: booleanType }, ['result']);
const uint32 = (fieldNumber: number) => ({ dataType: 'uint32', fieldNumber }) as const;
const hexField = (fieldNumber: number) => ({ dataType: 'string', format: 'hex', fieldNumber }) as const;

/** A chain account as JSON: hex roots, and no length limits on the name. */
const chainAccountResponse = {
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

/** The interoperability endpoints as Klayr's metadata publishes them. */
export const INTEROPERABILITY_ENDPOINTS: EndpointDeclarations = {
  published: [
    { name: 'getChainAccount', request: chainIDRequest, response: chainAccountSchema },
    {
      name: 'getAllChainAccounts',
      request: chainIDRequest,
      response: endpointSchema(id('allChainAccounts'), { chains: { type: 'array', items: chainAccountResponse } }, [
        'chains',
      ]),
    },
    { name: 'getChannel', request: chainIDRequest, response: channelDataSchema },
    { name: 'getOwnChainAccount', response: ownChainAccountSchema },
    { name: 'getTerminatedStateAccount', request: chainIDRequest, response: terminatedStateSchema },
    { name: 'getTerminatedOutboxAccount', request: chainIDRequest, response: terminatedOutboxSchema },
    {
      name: 'getRegistrationFee',
      response: endpointSchema(id('mainchain/registrationFee'), { registrationFee: stringType }, ['registrationFee']),
    },
    {
      name: 'getMinimumMessageFee',
      response: endpointSchema(id('mainchain/minimumMessageFeeResponse'), { fee: stringType }, ['fee']),
    },
    {
      name: 'getChainValidators',
      request: chainIDRequest,
      response: { ...validatorsHashInputSchema, $id: id('validatorsHashInput') },
    },
    { name: 'isChainIDAvailable', request: chainIDRequest, response: result('isChainIDAvailableResponseSchema') },
    {
      name: 'isChainNameAvailable',
      request: endpointSchema(
        id('endpoint/isChainNameAvailableRequest'),
        { name: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: 32 } },
        ['name'],
      ),
      response: result('isChainNameAvailableResponseSchema'),
    },
    {
      name: 'getCCMSchema',
      response: endpointSchema(id('endpoint/getCCMSchemaResponseSchema'), { schema: ccmSchema }, ['schema']),
    },
  ],
};

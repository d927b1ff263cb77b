import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { computeSubstorePrefix } from '../../lib/state/keys.js';
import { INTEROP_STORES, STORE_PREFIX } from './index.js';
import type { Schema } from '../../lib/codec/index.js';
import { ccmSchema, chainAccountSchema, chainValidatorsSchema, channelDataSchema, ownChainAccountSchema, terminatedOutboxSchema, terminatedStateSchema } from './schemas.js';

export const CHAIN_REGISTRATION_FEE = 1000000000n;
export const MIN_RETURN_FEE_PER_BYTE = 1000n;
const NAME = /^[a-z0-9!@$&_.]+$/;

const store = (view: StoreAccess, name: keyof typeof INTEROP_STORES) => view.store(STORE_PREFIX, computeSubstorePrefix(INTEROP_STORES[name]));
const ownAccount = (view: StoreAccess) => {
  const account = store(view, 'ownChainAccount').getWithSchema<{ name: string; chainID: Buffer; nonce: bigint }>(Buffer.alloc(0), ownChainAccountSchema);
  if (account === undefined) throw new Error('The own chain account does not exist.');
  return account;
};

const chainIDParams = { type: 'object', required: ['chainID'], properties: { chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 } } } as const;
type Box = { appendPath: Buffer[]; size: number; root: Buffer };
const boxJSON = (box: Box) => ({ appendPath: box.appendPath.map((a) => a.toString('hex')), root: box.root.toString('hex'), size: box.size });

/** A store entry for a chain ID, or Klayr's error when there is none. */
const entry = <T>(view: StoreAccess, name: keyof typeof INTEROP_STORES, chainID: string, schema: Schema, what: string): T => {
  const value = store(view, name).getWithSchema<T>(Buffer.from(chainID, 'hex'), schema);
  if (value === undefined) throw new Error(`${what} for chain ${chainID} does not exist.`);
  return value;
};

interface ChainAccount {
  name: string;
  status: number;
  lastCertificate: { height: number; timestamp: number; stateRoot: Buffer; validatorsHash: Buffer };
}
const chainAccountJSON = ({ name, status, lastCertificate }: ChainAccount) => ({
  lastCertificate: { height: lastCertificate.height, timestamp: lastCertificate.timestamp, stateRoot: lastCertificate.stateRoot.toString('hex'), validatorsHash: lastCertificate.validatorsHash.toString('hex') },
  name,
  status,
});

/** The mainchain interoperability endpoints, as klayr-framework answers them. */
export const mainchainInteroperabilityEndpoints = (state: () => StoreAccess): Record<string, EndpointDefinition> => ({
  getChainAccount: {
    params: chainIDParams,
    handler: ({ params }) => chainAccountJSON(entry<ChainAccount>(state(), 'chainAccount', params.chainID as string, chainAccountSchema, 'Chain account')),
  },
  getAllChainAccounts: {
    params: chainIDParams,
    handler: ({ params }) => ({
      chains: store(state(), 'chainAccount')
        .iterateWithSchema<ChainAccount>({ gte: Buffer.from(params.chainID as string, 'hex'), lte: Buffer.alloc(4, 255) }, chainAccountSchema)
        .map(({ value }) => chainAccountJSON(value)),
    }),
  },
  getChannel: {
    params: chainIDParams,
    handler: ({ params }) => {
      const channel = entry<{ inbox: Box; outbox: Box; partnerChainOutboxRoot: Buffer; messageFeeTokenID: Buffer; minReturnFeePerByte: bigint }>(state(), 'channelData', params.chainID as string, channelDataSchema, 'Channel');
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
      const account = entry<{ stateRoot: Buffer; initialized: boolean; mainchainStateRoot: Buffer }>(state(), 'terminatedState', params.chainID as string, terminatedStateSchema, 'Terminated state account');
      return { stateRoot: account.stateRoot.toString('hex'), initialized: account.initialized, mainchainStateRoot: account.mainchainStateRoot.toString('hex') };
    },
  },
  getTerminatedOutboxAccount: {
    params: chainIDParams,
    handler: ({ params }) => {
      const account = entry<{ outboxRoot: Buffer; outboxSize: number; partnerChainInboxSize: number }>(state(), 'terminatedOutbox', params.chainID as string, terminatedOutboxSchema, 'Terminated outbox account');
      return { outboxRoot: account.outboxRoot.toString('hex'), outboxSize: account.outboxSize, partnerChainInboxSize: account.partnerChainInboxSize };
    },
  },
  getChainValidators: {
    params: chainIDParams,
    handler: ({ params }) => {
      const view = state();
      if (!store(view, 'chainAccount').has(Buffer.from(params.chainID as string, 'hex'))) throw new Error('Chain account does not exist.');
      const validators = entry<{ activeValidators: { blsKey: Buffer; bftWeight: bigint }[]; certificateThreshold: bigint }>(view, 'chainValidators', params.chainID as string, chainValidatorsSchema, 'Chain validators');
      return {
        activeValidators: validators.activeValidators.map((v) => ({ blsKey: v.blsKey.toString('hex'), bftWeight: v.bftWeight.toString() })),
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
    params: { type: 'object', required: ['chainID'], properties: { chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 } } },
    handler: ({ params }) => {
      const view = state();
      const chainID = Buffer.from(params.chainID as string, 'hex');
      const own = ownAccount(view).chainID;
      if (chainID[0] !== own[0] || chainID.equals(own)) return { result: false };
      return { result: !store(view, 'chainAccount').has(chainID) };
    },
  },
  isChainNameAvailable: {
    params: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 32 } } },
    handler: ({ params }) => {
      const name = params.name as string;
      if (!NAME.test(name)) throw new Error('Invalid name property. It should contain only characters from the set [a-z0-9!@$&_.].');
      return { result: !store(state(), 'registeredNames').has(Buffer.from(name, 'ascii')) };
    },
  },
});

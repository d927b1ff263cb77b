import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { computeSubstorePrefix } from '../../lib/state/keys.js';
import { INTEROP_STORES, STORE_PREFIX } from './index.js';
import { ownChainAccountSchema } from './schemas.js';

export const CHAIN_REGISTRATION_FEE = 1000000000n;
export const MIN_RETURN_FEE_PER_BYTE = 1000n;
const NAME = /^[a-z0-9!@$&_.]+$/;

const store = (view: StoreAccess, name: keyof typeof INTEROP_STORES) => view.store(STORE_PREFIX, computeSubstorePrefix(INTEROP_STORES[name]));
const ownAccount = (view: StoreAccess) => {
  const account = store(view, 'ownChainAccount').getWithSchema<{ name: string; chainID: Buffer; nonce: bigint }>(Buffer.alloc(0), ownChainAccountSchema);
  if (account === undefined) throw new Error('The own chain account does not exist.');
  return account;
};

/** The mainchain interoperability endpoints that need no sidechain data, as klayr-framework answers them. */
export const mainchainInteroperabilityEndpoints = (state: () => StoreAccess): Record<string, EndpointDefinition> => ({
  getRegistrationFee: { handler: () => ({ fee: CHAIN_REGISTRATION_FEE.toString() }) },
  getMinimumMessageFee: { handler: () => ({ fee: MIN_RETURN_FEE_PER_BYTE.toString() }) },
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

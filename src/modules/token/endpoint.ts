import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { klayr32ToAddress } from '../../lib/crypto/address.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import {
  arrayOf,
  booleanType,
  endpointSchema,
  hexOfLength,
  hex as hexString,
  klayr32,
  objectSchema,
  stringType,
  uint64String,
} from '../../lib/endpoint/metadata.js';
import { hexBytes } from '../../lib/endpoint/params.js';
import type { UserAccount } from './schemas.js';
import { escrowStoreSchema, supplyStoreSchema, supportedTokensStoreSchema, userStoreSchema } from './schemas.js';
import {
  ADDRESS_LENGTH,
  ALL_SUPPORTED_TOKENS_KEY,
  CHAIN_ID_LENGTH,
  TOKEN_ID_LENGTH,
  tokenStore,
  userKeyOf,
} from './stores.js';
import { isTokenSupported } from './supported_tokens.js';

const address = { type: 'string', format: 'klayr32' } as const;
const tokenID = hexBytes(TOKEN_ID_LENGTH);
const hex = (b: Buffer): string => b.toString('hex');
const range = (length: number) => ({ gte: Buffer.alloc(length, 0), lte: Buffer.alloc(length, 255) });
const balanceJSON = (u: UserAccount) => ({
  availableBalance: u.availableBalance.toString(),
  lockedBalances: u.lockedBalances.map((b) => ({ amount: b.amount.toString(), module: b.module })),
});

export interface TokenEndpointConfig {
  chainID: Buffer;
  userAccountInitializationFee: bigint;
  escrowAccountInitializationFee: bigint;
}

/** The token namespace, answering as klayr-framework's TokenEndpoint. `state` gives a read view of committed state. */
export const tokenEndpoints = (state: () => StoreAccess, config: TokenEndpointConfig): Endpoints => ({
  getBalances: {
    params: { type: 'object', required: ['address'], properties: { address } },
    handler: ({ params }) => {
      const a = klayr32ToAddress(params.address as string);
      const users = tokenStore(state(), 'user').iterateWithSchema<UserAccount>(
        {
          gte: Buffer.concat([a, Buffer.alloc(TOKEN_ID_LENGTH, 0)]),
          lte: Buffer.concat([a, Buffer.alloc(TOKEN_ID_LENGTH, 255)]),
        },
        userStoreSchema,
      );
      return {
        balances: users.map(({ key, value }) => ({
          tokenID: hex(key.subarray(ADDRESS_LENGTH)),
          ...balanceJSON(value),
        })),
      };
    },
  },
  getBalance: {
    params: { type: 'object', required: ['address', 'tokenID'], properties: { address, tokenID } },
    handler: ({ params }) => {
      const user = tokenStore(state(), 'user').getWithSchema<UserAccount>(
        userKeyOf(params.address as string, params.tokenID as string),
        userStoreSchema,
      );
      return user === undefined ? { availableBalance: '0', lockedBalances: [] } : balanceJSON(user);
    },
  },
  getTotalSupply: {
    handler: () => ({
      totalSupply: tokenStore(state(), 'supply')
        .iterateWithSchema<{ totalSupply: bigint }>(range(TOKEN_ID_LENGTH), supplyStoreSchema)
        .map(({ key, value }) => ({ tokenID: hex(key), totalSupply: value.totalSupply.toString() })),
    }),
  },
  getSupportedTokens: {
    handler: () => {
      const view = state();
      const supported = tokenStore(view, 'supportedTokens');
      if (supported.has(ALL_SUPPORTED_TOKENS_KEY)) return { supportedTokens: ['*'] };
      const tokens = [hex(Buffer.concat([config.chainID.subarray(0, 1), Buffer.alloc(TOKEN_ID_LENGTH - 1)]))];
      for (const { key } of tokenStore(view, 'supply').iterate(range(TOKEN_ID_LENGTH))) tokens.push(hex(key));
      for (const { key, value } of supported.iterateWithSchema<{ supportedTokenIDs: Buffer[] }>(
        range(CHAIN_ID_LENGTH),
        supportedTokensStoreSchema,
      )) {
        if (value.supportedTokenIDs.length === 0) tokens.push(`${hex(key)}********`);
        else tokens.push(...value.supportedTokenIDs.map(hex));
      }
      return { supportedTokens: tokens };
    },
  },
  isSupported: {
    params: { type: 'object', required: ['tokenID'], properties: { tokenID } },
    handler: ({ params }) => ({
      supported: isTokenSupported(state(), config.chainID, Buffer.from(params.tokenID as string, 'hex')),
    }),
  },
  getEscrowedAmounts: {
    handler: () => ({
      escrowedAmounts: tokenStore(state(), 'escrow')
        .iterateWithSchema<{ amount: bigint }>(range(TOKEN_ID_LENGTH), escrowStoreSchema)
        .map(({ key, value }) => ({
          escrowChainID: hex(key.subarray(0, CHAIN_ID_LENGTH)),
          amount: value.amount.toString(),
          tokenID: hex(key.subarray(CHAIN_ID_LENGTH)),
        })),
    }),
  },
  getInitializationFees: {
    constant: true,
    handler: () => ({
      userAccount: config.userAccountInitializationFee.toString(),
      escrowAccount: config.escrowAccountInitializationFee.toString(),
    }),
  },
  hasUserAccount: {
    params: { type: 'object', required: ['address', 'tokenID'], properties: { address, tokenID } },
    handler: ({ params }) => ({
      exists: tokenStore(state(), 'user').has(userKeyOf(params.address as string, params.tokenID as string)),
    }),
  },
  hasEscrowAccount: {
    params: {
      type: 'object',
      required: ['tokenID', 'escrowChainID'],
      properties: { tokenID, escrowChainID: hexBytes(CHAIN_ID_LENGTH) },
    },
    handler: ({ params }) => ({
      exists: tokenStore(state(), 'escrow').has(
        Buffer.concat([
          Buffer.from(params.escrowChainID as string, 'hex'),
          Buffer.from(params.tokenID as string, 'hex'),
        ]),
      ),
    }),
  },
});

const tokenIDString = hexOfLength(16);
const lockedBalances = arrayOf(objectSchema({ module: stringType, amount: uint64String }, ['module', 'amount']));
const exists = { exists: booleanType };

/** The token endpoints as Klayr's metadata publishes them. */
export const TOKEN_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'getBalance',
      request: endpointSchema('/token/endpoint/getBalanceRequest', { address: klayr32, tokenID: tokenIDString }, [
        'address',
        'tokenID',
      ]),
      response: endpointSchema(
        '/token/endpoint/getBalanceResponse',
        { availableBalance: uint64String, lockedBalances },
        ['availableBalance', 'lockedBalances'],
      ),
    },
    {
      name: 'getBalances',
      request: endpointSchema('/token/endpoint/getBalancesRequest', { address: klayr32 }, ['address']),
      response: endpointSchema(
        '/token/endpoint/getBalancesResponse',
        {
          balances: arrayOf(
            objectSchema({ tokenID: hexString, availableBalance: uint64String, lockedBalances }, [
              'availableBalance',
              'lockedBalances',
              'tokenID',
            ]),
          ),
        },
        ['balances'],
      ),
    },
    {
      name: 'getTotalSupply',
      response: endpointSchema('/token/endpoint/getTotalSupplyResponse', {
        totalSupply: arrayOf(
          objectSchema({ tokenID: hexString, totalSupply: uint64String }, ['totalSupply', 'tokenID']),
        ),
      }),
    },
    {
      name: 'getSupportedTokens',
      response: endpointSchema('/token/endpoint/getSupportedTokensResponse', { tokenIDs: arrayOf(hexString) }),
    },
    {
      name: 'isSupported',
      request: endpointSchema('/token/endpoint/isSupportedRequest', { tokenID: tokenIDString }, ['tokenID']),
      // Klayr publishes dataType (not type) 'boolean' here
      response: endpointSchema('/token/endpoint/isSupportedResponse', { supported: { dataType: 'boolean' } }, [
        'supported',
      ]),
    },
    {
      name: 'getEscrowedAmounts',
      response: endpointSchema('/token/endpoint/getEscrowedAmountsResponse', {
        escrowedAmounts: arrayOf(
          objectSchema({ escrowChainID: hexString, tokenID: hexString, amount: uint64String }, [
            'escrowChainID',
            'amount',
            'tokenID',
          ]),
        ),
      }),
    },
    {
      name: 'getInitializationFees',
      response: endpointSchema(
        '/token/endpoint/getInitializationFees',
        { userAccount: uint64String, escrowAccount: uint64String },
        ['userAccount', 'escrowAccount'],
      ),
    },
    {
      name: 'hasUserAccount',
      request: endpointSchema('/token/endpoint/hasUserAccountRequest', { address: klayr32, tokenID: tokenIDString }, [
        'address',
        'tokenID',
      ]),
      response: endpointSchema('/token/endpoint/hasUserAccountResponse', exists),
    },
    {
      name: 'hasEscrowAccount',
      request: endpointSchema(
        '/token/endpoint/hasEscrowAccountRequest',
        { tokenID: tokenIDString, escrowChainID: hexString },
        ['tokenID', 'escrowChainID'],
      ),
      response: endpointSchema('/token/endpoint/hasEscrowAccountResponse', exists),
    },
  ],
};

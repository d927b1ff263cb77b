import { computeStorePrefix } from '../../lib/state/keys.js';
import { arrayOf, booleanType, endpointSchema, hex, hexOfLength, klayr32, objectSchema, storeMetadata, stringType, uint64String } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { escrowStoreSchema, supplyStoreSchema, supportedTokensStoreSchema, userStoreSchema } from './schemas.js';
import { MODULE_NAME, TOKEN_STORES } from './stores.js';

const storePrefix = computeStorePrefix(MODULE_NAME);
const tokenID = hexOfLength(16);
const lockedBalances = arrayOf(objectSchema({ module: stringType, amount: uint64String }, ['module', 'amount']));
const exists = { exists: booleanType };

export const tokenMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [
    storeMetadata(storePrefix, TOKEN_STORES.user, userStoreSchema),
    storeMetadata(storePrefix, TOKEN_STORES.supply, supplyStoreSchema),
    storeMetadata(storePrefix, TOKEN_STORES.escrow, escrowStoreSchema),
    storeMetadata(storePrefix, TOKEN_STORES.supportedTokens, supportedTokensStoreSchema),
  ],
  endpoints: [
    {
      name: 'getBalance',
      request: endpointSchema('/token/endpoint/getBalanceRequest', { address: klayr32, tokenID }, ['address', 'tokenID']),
      response: endpointSchema('/token/endpoint/getBalanceResponse', { availableBalance: uint64String, lockedBalances }, ['availableBalance', 'lockedBalances']),
    },
    {
      name: 'getBalances',
      request: endpointSchema('/token/endpoint/getBalancesRequest', { address: klayr32 }, ['address']),
      response: endpointSchema(
        '/token/endpoint/getBalancesResponse',
        { balances: arrayOf(objectSchema({ tokenID: hex, availableBalance: uint64String, lockedBalances }, ['availableBalance', 'lockedBalances', 'tokenID'])) },
        ['balances'],
      ),
    },
    { name: 'getTotalSupply', response: endpointSchema('/token/endpoint/getTotalSupplyResponse', { totalSupply: arrayOf(objectSchema({ tokenID: hex, totalSupply: uint64String }, ['totalSupply', 'tokenID'])) }) },
    { name: 'getSupportedTokens', response: endpointSchema('/token/endpoint/getSupportedTokensResponse', { tokenIDs: arrayOf(hex) }) },
    {
      name: 'isSupported',
      request: endpointSchema('/token/endpoint/isSupportedRequest', { tokenID }, ['tokenID']),
      // Klayr publishes dataType (not type) 'boolean' here
      response: endpointSchema('/token/endpoint/isSupportedResponse', { supported: { dataType: 'boolean' } }, ['supported']),
    },
    {
      name: 'getEscrowedAmounts',
      response: endpointSchema('/token/endpoint/getEscrowedAmountsResponse', {
        escrowedAmounts: arrayOf(objectSchema({ escrowChainID: hex, tokenID: hex, amount: uint64String }, ['escrowChainID', 'amount', 'tokenID'])),
      }),
    },
    { name: 'getInitializationFees', response: endpointSchema('/token/endpoint/getInitializationFees', { userAccount: uint64String, escrowAccount: uint64String }, ['userAccount', 'escrowAccount']) },
    {
      name: 'hasUserAccount',
      request: endpointSchema('/token/endpoint/hasUserAccountRequest', { address: klayr32, tokenID }, ['address', 'tokenID']),
      response: endpointSchema('/token/endpoint/hasUserAccountResponse', exists),
    },
    {
      name: 'hasEscrowAccount',
      request: endpointSchema('/token/endpoint/hasEscrowAccountRequest', { tokenID, escrowChainID: hex }, ['tokenID', 'escrowChainID']),
      response: endpointSchema('/token/endpoint/hasEscrowAccountResponse', exists),
    },
  ],
};

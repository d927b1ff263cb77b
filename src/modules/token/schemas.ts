import type { Schema } from '../../lib/codec/index.js';

const tokenID = { dataType: 'bytes', minLength: 8, maxLength: 8 } as const;

export const genesisTokenStoreSchema = {
  $id: '/token/module/genesis',
  type: 'object',
  required: ['userSubstore', 'supplySubstore', 'escrowSubstore', 'supportedTokensSubstore'],
  properties: {
    userSubstore: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'tokenID', 'availableBalance', 'lockedBalances'],
        properties: {
          address: { dataType: 'bytes', format: 'klayr32', fieldNumber: 1 },
          tokenID: { ...tokenID, fieldNumber: 2 },
          availableBalance: { dataType: 'uint64', fieldNumber: 3 },
          lockedBalances: {
            type: 'array',
            fieldNumber: 4,
            items: {
              type: 'object',
              required: ['module', 'amount'],
              properties: {
                module: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 1 },
                amount: { dataType: 'uint64', fieldNumber: 2 },
              },
            },
          },
        },
      },
    },
    supplySubstore: {
      type: 'array',
      fieldNumber: 2,
      items: {
        type: 'object',
        required: ['tokenID', 'totalSupply'],
        properties: { tokenID: { ...tokenID, fieldNumber: 1 }, totalSupply: { dataType: 'uint64', fieldNumber: 2 } },
      },
    },
    escrowSubstore: {
      type: 'array',
      fieldNumber: 3,
      items: {
        type: 'object',
        required: ['escrowChainID', 'tokenID', 'amount'],
        properties: {
          escrowChainID: { dataType: 'bytes', minLength: 4, maxLength: 4, fieldNumber: 1 },
          tokenID: { ...tokenID, fieldNumber: 2 },
          amount: { dataType: 'uint64', fieldNumber: 3 },
        },
      },
    },
    supportedTokensSubstore: {
      type: 'array',
      fieldNumber: 4,
      items: {
        type: 'object',
        required: ['chainID', 'supportedTokenIDs'],
        properties: {
          chainID: { dataType: 'bytes', fieldNumber: 1 },
          supportedTokenIDs: { type: 'array', fieldNumber: 2, items: { ...tokenID } },
        },
      },
    },
  },
} as const satisfies Schema;

export const userStoreSchema = {
  $id: '/token/store/user',
  type: 'object',
  required: ['availableBalance', 'lockedBalances'],
  properties: {
    availableBalance: { dataType: 'uint64', fieldNumber: 1 },
    lockedBalances: {
      type: 'array',
      fieldNumber: 2,
      items: {
        type: 'object',
        required: ['module', 'amount'],
        properties: {
          module: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: 32 },
          amount: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
  },
} as const satisfies Schema;

export const supplyStoreSchema = {
  $id: '/token/store/supply',
  type: 'object',
  required: ['totalSupply'],
  properties: { totalSupply: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

export const escrowStoreSchema = {
  $id: '/token/store/escrow',
  type: 'object',
  required: ['amount'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

export const supportedTokensStoreSchema = {
  $id: '/token/store/supportedTokens',
  type: 'object',
  required: ['supportedTokenIDs'],
  properties: {
    supportedTokenIDs: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes', minLength: 8, maxLength: 8 } },
  },
} as const satisfies Schema;

export interface LockedBalance {
  module: string;
  amount: bigint;
}
export interface UserAccount {
  availableBalance: bigint;
  lockedBalances: LockedBalance[];
}
export interface GenesisTokenStore {
  userSubstore: ({ address: Buffer; tokenID: Buffer } & UserAccount)[];
  supplySubstore: { tokenID: Buffer; totalSupply: bigint }[];
  escrowSubstore: { escrowChainID: Buffer; tokenID: Buffer; amount: bigint }[];
  supportedTokensSubstore: { chainID: Buffer; supportedTokenIDs: Buffer[] }[];
}

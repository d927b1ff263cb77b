import type { Schema } from '../../lib/codec/index.js';

export const MAX_NUMBER_OF_SIGNATURES = 64;

export const authAccountSchema = {
  $id: '/auth/account',
  type: 'object',
  properties: {
    nonce: { dataType: 'uint64', fieldNumber: 1 },
    numberOfSignatures: { dataType: 'uint32', fieldNumber: 2, minimum: 0, maximum: 64 },
    mandatoryKeys: {
      type: 'array',
      items: { dataType: 'bytes', minLength: 32, maxLength: 32 },
      minItems: 0,
      maxItems: 64,
      fieldNumber: 3,
    },
    optionalKeys: {
      type: 'array',
      items: { dataType: 'bytes', minLength: 32, maxLength: 32 },
      minItems: 0,
      maxItems: 64,
      fieldNumber: 4,
    },
  },
  required: ['nonce', 'numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
} as const satisfies Schema;

export const multisigRegMsgSchema = {
  $id: '/auth/command/regMultisigMsg',
  type: 'object',
  required: ['address', 'nonce', 'numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
  properties: {
    address: { dataType: 'bytes', fieldNumber: 1, minLength: 20, maxLength: 20 },
    nonce: { dataType: 'uint64', fieldNumber: 2 },
    numberOfSignatures: { dataType: 'uint32', fieldNumber: 3 },
    mandatoryKeys: { type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 }, fieldNumber: 4 },
    optionalKeys: { type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 }, fieldNumber: 5 },
  },
} as const satisfies Schema;

export interface AuthAccount {
  nonce: bigint;
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
}

const genesisKeys = { type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 } } as const;

/** The auth module's genesis asset (klayr-framework's genesisAuthStoreSchema): addresses are not length-limited here. */
export const genesisAuthStoreSchema = {
  $id: '/auth/module/genesis',
  type: 'object',
  required: ['authDataSubstore'],
  properties: {
    authDataSubstore: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'authAccount'],
        properties: {
          address: { dataType: 'bytes', fieldNumber: 1 },
          authAccount: {
            type: 'object',
            fieldNumber: 2,
            required: ['nonce', 'numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
            properties: {
              nonce: { dataType: 'uint64', fieldNumber: 1 },
              numberOfSignatures: { dataType: 'uint32', fieldNumber: 2 },
              mandatoryKeys: { ...genesisKeys, fieldNumber: 3 },
              optionalKeys: { ...genesisKeys, fieldNumber: 4 },
            },
          },
        },
      },
    },
  },
} as const satisfies Schema;

export interface GenesisAuthStore {
  authDataSubstore: { address: Buffer; authAccount: AuthAccount }[];
}

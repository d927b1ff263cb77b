import type { Schema } from '../../lib/codec/index.js';

export const reclaimParamsSchema = {
  $id: '/legacy/command/reclaimLSKParams',
  type: 'object',
  required: ['amount'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

export const registerKeysParamsSchema = {
  $id: '/legacy/command/registerKeysParams',
  type: 'object',
  required: ['blsKey', 'proofOfPossession', 'generatorKey'],
  properties: {
    blsKey: { dataType: 'bytes', minLength: 48, maxLength: 48, fieldNumber: 1 },
    proofOfPossession: { dataType: 'bytes', minLength: 96, maxLength: 96, fieldNumber: 2 },
    generatorKey: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 3 },
  },
} as const satisfies Schema;

export const genesisLegacyStoreSchema = {
  $id: '/legacy/module/genesis',
  type: 'object',
  required: ['accounts'],
  properties: {
    accounts: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'balance'],
        properties: {
          address: { dataType: 'bytes', minLength: 8, maxLength: 8, fieldNumber: 1 },
          balance: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
  },
} as const satisfies Schema;

import type { Schema } from '../../lib/codec/index.js';

export const validatorKeysSchema = {
  $id: '/validators/validatorAccountSubStore',
  title: 'Validators Account Keys',
  type: 'object',
  properties: {
    generatorKey: { dataType: 'bytes', fieldNumber: 1, minLength: 32, maxLength: 32 },
    blsKey: { dataType: 'bytes', fieldNumber: 2, minLength: 48, maxLength: 48 },
  },
  required: ['generatorKey', 'blsKey'],
} as const satisfies Schema;

export const blsKeyDataSchema = {
  $id: '/validators/blsKeyData',
  title: 'Validators Addresses',
  type: 'object',
  properties: { address: { dataType: 'bytes', fieldNumber: 1 } },
  required: ['address'],
} as const satisfies Schema;

export const generatorKeyRegDataSchema = {
  $id: '/validators/event/generatorKeyRegData',
  type: 'object',
  required: ['generatorKey', 'result'],
  properties: {
    generatorKey: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 1 },
    result: { dataType: 'uint32', fieldNumber: 2 },
  },
} as const satisfies Schema;

export const blsKeyRegDataSchema = {
  $id: '/validators/event/blsKeyRegData',
  type: 'object',
  required: ['blsKey', 'proofOfPossession', 'result'],
  properties: {
    blsKey: { dataType: 'bytes', minLength: 48, maxLength: 48, fieldNumber: 1 },
    proofOfPossession: { dataType: 'bytes', minLength: 96, maxLength: 96, fieldNumber: 2 },
    result: { dataType: 'uint32', fieldNumber: 3 },
  },
} as const satisfies Schema;

export const validatorsParamsSchema = {
  $id: '/validators/validatorsParams',
  type: 'object',
  required: ['validators', 'preCommitThreshold', 'certificateThreshold'],
  properties: {
    preCommitThreshold: { fieldNumber: 1, dataType: 'uint64' },
    certificateThreshold: { fieldNumber: 2, dataType: 'uint64' },
    validators: {
      fieldNumber: 3,
      type: 'array',
      items: {
        type: 'object',
        required: ['address', 'bftWeight', 'generatorKey', 'blsKey'],
        properties: {
          address: { fieldNumber: 1, dataType: 'bytes', format: 'klayr32' },
          bftWeight: { fieldNumber: 2, dataType: 'uint64' },
          generatorKey: { fieldNumber: 3, dataType: 'bytes' },
          blsKey: { fieldNumber: 4, dataType: 'bytes' },
        },
      },
    },
  },
} as const satisfies Schema;

export interface ValidatorKeys {
  generatorKey: Buffer;
  blsKey: Buffer;
}

/** Registration results carried by the events (Klayr's KeyRegResult). */
export const KEY_REG_RESULT = {
  SUCCESS: 0,
  NO_VALIDATOR: 1,
  ALREADY_VALIDATOR: 2,
  DUPLICATE_BLS_KEY: 3,
  INVALID_POP: 4,
} as const;

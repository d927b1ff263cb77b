import type { Schema } from '../codec/index.js';

const headerProperties = {
  version: { dataType: 'uint32', fieldNumber: 1 },
  timestamp: { dataType: 'uint32', fieldNumber: 2 },
  height: { dataType: 'uint32', fieldNumber: 3 },
  previousBlockID: { dataType: 'bytes', fieldNumber: 4 },
  generatorAddress: { dataType: 'bytes', fieldNumber: 5, format: 'klayr32' },
  transactionRoot: { dataType: 'bytes', fieldNumber: 6 },
  assetRoot: { dataType: 'bytes', fieldNumber: 7 },
  eventRoot: { dataType: 'bytes', fieldNumber: 8 },
  stateRoot: { dataType: 'bytes', fieldNumber: 9 },
  maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 10 },
  maxHeightGenerated: { dataType: 'uint32', fieldNumber: 11 },
  impliesMaxPrevotes: { dataType: 'boolean', fieldNumber: 12 },
  validatorsHash: { dataType: 'bytes', fieldNumber: 13 },
  aggregateCommit: {
    type: 'object',
    fieldNumber: 14,
    required: ['height', 'aggregationBits', 'certificateSignature'],
    properties: {
      height: { dataType: 'uint32', fieldNumber: 1 },
      aggregationBits: { dataType: 'bytes', fieldNumber: 2 },
      certificateSignature: { dataType: 'bytes', fieldNumber: 3 },
    },
  },
} as const;
const signingRequired = Object.keys(headerProperties);

/** @klayr/chain's schemas (block v2 with header version 3 layouts), served by system_getSchema. */
export const blockSchema = {
  $id: '/block',
  type: 'object',
  properties: {
    header: { dataType: 'bytes', fieldNumber: 1 },
    transactions: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
    assets: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 3 },
  },
  required: ['header', 'transactions', 'assets'],
} as const satisfies Schema;

export const signingBlockHeaderSchema = {
  $id: '/block/header/signing/3',
  type: 'object',
  properties: headerProperties,
  required: signingRequired,
} as const satisfies Schema;

export const blockHeaderSchema = {
  $id: '/block/header/3/without-id',
  type: 'object',
  properties: { ...headerProperties, signature: { dataType: 'bytes', fieldNumber: 15 } },
  required: [...signingRequired, 'signature'],
} as const satisfies Schema;

export const blockAssetSchema = {
  $id: '/block/asset/3',
  type: 'object',
  required: ['module', 'data'],
  properties: { module: { dataType: 'string', fieldNumber: 1 }, data: { dataType: 'bytes', fieldNumber: 2 } },
} as const satisfies Schema;

export const eventSchema = {
  $id: '/block/event',
  type: 'object',
  required: ['module', 'name', 'data', 'topics', 'height', 'index'],
  properties: {
    module: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 1 },
    name: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 2 },
    data: { dataType: 'bytes', fieldNumber: 3 },
    topics: { type: 'array', fieldNumber: 4, maxItems: 4, items: { dataType: 'bytes' } },
    height: { dataType: 'uint32', fieldNumber: 5 },
    index: { dataType: 'uint32', fieldNumber: 6, maximum: 1073741823 },
  },
} as const satisfies Schema;

export const standardEventDataSchema = {
  $id: '/block/event/standard',
  type: 'object',
  required: ['success'],
  properties: { success: { dataType: 'boolean', fieldNumber: 1 } },
} as const satisfies Schema;

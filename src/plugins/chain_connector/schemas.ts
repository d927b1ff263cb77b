import type { AggregateCommit } from '../../lib/chain/block.js';
import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { CCMWithHeight } from '../../lib/interop/ccu_inbox_update.js';
import type { ValidatorsData } from '../../lib/interop/ccu_validators_update.js';
import { ccmSchema } from '../../lib/interop/schemas.js';

/** How the plugin store encodes its values: @klayr/chain-connector-plugin 0.2.2's schemas (schemas.js). */

const aggregateCommitSchema = {
  $id: '/klayr/plugins/chainConnector/aggregateCommit',
  type: 'object',
  required: ['height', 'aggregationBits', 'certificateSignature'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    aggregationBits: { dataType: 'bytes', fieldNumber: 2 },
    certificateSignature: { dataType: 'bytes', fieldNumber: 3 },
  },
} as const satisfies Schema;

export const validatorsDataSchema = {
  $id: '/klayr/plugins/chainConnector/validatorsData',
  type: 'object',
  required: ['validators', 'certificateThreshold', 'validatorsHash'],
  properties: {
    validators: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'blsKey', 'bftWeight'],
        properties: {
          address: { dataType: 'bytes', fieldNumber: 1 },
          blsKey: { dataType: 'bytes', fieldNumber: 2 },
          bftWeight: { dataType: 'uint64', fieldNumber: 3 },
        },
      },
    },
    certificateThreshold: { dataType: 'uint64', fieldNumber: 2 },
    validatorsHash: { dataType: 'bytes', fieldNumber: 3 },
    height: { dataType: 'uint32', fieldNumber: 4 },
  },
} as const satisfies Schema;

const ccmFields = Object.keys(ccmSchema.properties).length;

const ccmsAtHeightSchema = {
  $id: '/klayr/plugins/chainConnector/ccmsAtHeight',
  type: 'object',
  required: ['ccms'],
  properties: {
    ccms: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: [...ccmSchema.required, 'height'],
        properties: { ...ccmSchema.properties, height: { dataType: 'uint32', fieldNumber: ccmFields + 1 } },
      },
    },
  },
} as const satisfies Schema;

const lastSentCCMSchema = {
  $id: '/klayr/plugins/chainConnector/lastSentCCM',
  type: 'object',
  required: [...ccmSchema.required, 'height', 'outboxSize'],
  properties: {
    ...ccmSchema.properties,
    height: { dataType: 'uint32', fieldNumber: ccmFields + 1 },
    outboxSize: { dataType: 'uint32', fieldNumber: ccmFields + 2 },
  },
} as const satisfies Schema;

export type StoredValidatorsData = ValidatorsData & { height: number };
export type SentCCM = CCMWithHeight & { outboxSize: number };

export const aggregateCommitCodec = compile<AggregateCommit>(aggregateCommitSchema);
export const validatorsDataCodec = compile<StoredValidatorsData>(validatorsDataSchema);
export const ccmsAtHeightCodec = compile<{ ccms: CCMWithHeight[] }>(ccmsAtHeightSchema);
export const lastSentCCMCodec = compile<SentCCM>(lastSentCCMSchema);

export const authorizeRequestSchema = {
  type: 'object',
  required: ['password', 'enable'],
  properties: { password: { type: 'string', minLength: 1, maxLength: 1024 }, enable: { type: 'boolean' } },
} as const;

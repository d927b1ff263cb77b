import type { Schema } from '../../lib/codec/index.js';

export const generatorFeeProcessedSchema = {
  $id: '/fee/events/generatorFeeProcessed',
  type: 'object',
  required: ['senderAddress', 'generatorAddress', 'burntAmount', 'generatorAmount'],
  properties: {
    senderAddress: { dataType: 'bytes', format: 'klayr32', fieldNumber: 1 },
    generatorAddress: { dataType: 'bytes', format: 'klayr32', fieldNumber: 2 },
    burntAmount: { dataType: 'uint64', fieldNumber: 3 },
    generatorAmount: { dataType: 'uint64', fieldNumber: 4 },
  },
} as const satisfies Schema;
/** Logged for each CCM applied, with what its fee paid the relayer and what was burnt. */
export const relayerFeeProcessedSchema = {
  $id: '/fee/events/relayerFeeProcessed',
  type: 'object',
  required: ['ccmID', 'relayerAddress', 'burntAmount', 'relayerAmount'],
  properties: {
    ccmID: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 1 },
    relayerAddress: { dataType: 'bytes', format: 'klayr32', fieldNumber: 2 },
    burntAmount: { dataType: 'uint64', fieldNumber: 3 },
    relayerAmount: { dataType: 'uint64', fieldNumber: 4 },
  },
} as const satisfies Schema;
const emptySchema = { $id: '/klayr/empty', type: 'object', properties: {} } as const satisfies Schema;

export const FEE_EVENTS = [
  { name: 'generatorFeeProcessed', data: generatorFeeProcessedSchema },
  { name: 'relayerFeeProcessed', data: relayerFeeProcessedSchema },
  { name: 'insufficientFee', data: emptySchema },
];

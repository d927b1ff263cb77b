import type { Schema } from '../codec/index.js';
import { ccmSchema } from './schemas.js';

const ccmField = {
  fieldNumber: 1,
  type: 'object',
  required: ccmSchema.required,
  properties: ccmSchema.properties,
} as const;

/** Data of the interoperability event ccmSendSuccess (klayr-framework ccmSendSuccessDataSchema). */
export const ccmSendSuccessDataSchema = {
  $id: '/interoperability/events/ccmSendSuccess',
  type: 'object',
  required: ['ccm'],
  properties: { ccm: ccmField },
} as const satisfies Schema;

/** Data of the interoperability event ccmProcessed (klayr-framework ccmProcessedEventSchema); result 1 is "forwarded/applied". */
export const ccmProcessedDataSchema = {
  $id: '/interoperability/events/ccmProcessed',
  type: 'object',
  required: ['ccm', 'result', 'code'],
  properties: {
    ccm: ccmField,
    result: { dataType: 'uint32', fieldNumber: 2 },
    code: { dataType: 'uint32', fieldNumber: 3 },
  },
} as const satisfies Schema;

export const CCM_SEND_SUCCESS_EVENT = 'ccmSendSuccess';
export const CCM_PROCESSED_EVENT = 'ccmProcessed';
/** The ccmProcessed result Klayr's plugin keeps: 1, FORWARDED (klayr-framework CCMProcessedResult: APPLIED 0, FORWARDED 1, BOUNCED 2, DISCARDED 3). */
export const CCM_PROCESSED_RESULT_KEPT = 1;

export interface CCM {
  module: string;
  crossChainCommand: string;
  nonce: bigint;
  fee: bigint;
  sendingChainID: Buffer;
  receivingChainID: Buffer;
  params: Buffer;
  status: number;
}

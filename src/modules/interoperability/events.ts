import type { Schema } from '../../lib/codec/index.js';
import { emptySchema } from '../../lib/endpoint/metadata.js';
import { ccmSchema, chainAccountSchema, terminatedOutboxSchema, terminatedStateSchema } from './schemas.js';

const ccmField = {
  fieldNumber: 1,
  type: 'object',
  required: ccmSchema.required,
  properties: ccmSchema.properties,
} as const;
const uint32 = (fieldNumber: number) => ({ dataType: 'uint32', fieldNumber }) as const;
const root = (fieldNumber: number) => ({ dataType: 'bytes', fieldNumber, minLength: 32, maxLength: 32 }) as const;

/** The interoperability module's events in Klayr's registration order (base/event_log.ts logs them with Klayr's topics). */
export const interoperabilityEventSchemas = {
  chainAccountUpdated: chainAccountSchema,
  ccmProcessed: {
    $id: '/interoperability/events/ccmProcessed',
    type: 'object',
    required: ['ccm', 'result', 'code'],
    properties: { ccm: ccmField, result: uint32(2), code: uint32(3) },
  },
  ccmSendSuccess: {
    $id: '/interoperability/events/ccmSendSuccess',
    type: 'object',
    required: ['ccm'],
    properties: { ccm: ccmField },
  },
  // unlike the two above, Klayr embeds the CCM schema with its $id here
  ccmSentFailed: {
    $id: '/interoperability/events/ccmSendFail',
    type: 'object',
    required: ['ccm', 'code'],
    properties: { ccm: { ...ccmSchema, fieldNumber: 1 }, code: uint32(2) },
  },
  invalidRegistrationSignature: emptySchema,
  terminatedStateCreated: terminatedStateSchema,
  terminatedOutboxCreated: terminatedOutboxSchema,
  invalidSMTVerification: emptySchema,
  invalidRMTVerification: emptySchema,
  invalidCertificateSignature: emptySchema,
  invalidOutboxRootVerification: {
    $id: '/interoperability/events/invalidOutboxRootVerification',
    type: 'object',
    required: ['inboxRoot', 'partnerChainOutboxRoot'],
    properties: { inboxRoot: root(1), partnerChainOutboxRoot: root(2) },
  },
} as const satisfies Record<string, Schema>;

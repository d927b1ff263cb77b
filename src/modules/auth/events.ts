import type { Schema } from '../../lib/codec/index.js';

const keys = { type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 } } as const;
const groupData = {
  numberOfSignatures: { dataType: 'uint32', fieldNumber: 1 },
  mandatoryKeys: { ...keys, fieldNumber: 2 },
  optionalKeys: { ...keys, fieldNumber: 3 },
} as const;
export const authEventSchemas = {
  multisignatureRegistration: {
    $id: '/auth/events/multisigRegData',
    type: 'object',
    required: ['numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
    properties: groupData,
  },
  invalidSignature: {
    $id: '/auth/events/invalidSigData',
    type: 'object',
    required: ['numberOfSignatures', 'mandatoryKeys', 'optionalKeys', 'failingPublicKey', 'failingSignature'],
    properties: {
      ...groupData,
      failingPublicKey: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 4 },
      failingSignature: { dataType: 'bytes', minLength: 64, maxLength: 64, fieldNumber: 5 },
    },
  },
} as const satisfies Record<string, Schema>;

export const AUTH_EVENTS = Object.entries(authEventSchemas).map(([name, data]) => ({ name, data }));

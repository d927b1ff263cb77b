import type { Schema } from '../../lib/codec/index.js';

export const legacyEventSchemas = {
  accountReclaimed: {
    $id: 'klayr/legacy/accountReclaimedEventData',
    type: 'object',
    required: ['legacyAddress', 'address', 'amount'],
    properties: {
      legacyAddress: { dataType: 'bytes', maxLength: 8, fieldNumber: 1 },
      address: { dataType: 'bytes', maxLength: 20, fieldNumber: 2 },
      amount: { dataType: 'uint64', fieldNumber: 3 },
    },
  },
  keysRegistered: {
    $id: 'klayr/legacy/keysRegisteredEventData',
    type: 'object',
    required: ['address', 'generatorKey', 'blsKey'],
    properties: {
      address: { dataType: 'bytes', maxLength: 20, fieldNumber: 1 },
      generatorKey: { dataType: 'bytes', maxLength: 32, fieldNumber: 2 },
      blsKey: { dataType: 'bytes', maxLength: 48, fieldNumber: 3 },
    },
  },
} as const satisfies Record<string, Schema>;

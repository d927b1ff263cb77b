import type { Schema } from '../codec/index.js';

/**
 * Interoperability's wire formats, shared by the interoperability module (which executes them)
 * and the chainConnector plugin (which builds them): klayr-framework 0.12.3
 * modules/interoperability/schemas.js.
 */

const bytes = (fieldNumber: number) => ({ dataType: 'bytes', fieldNumber }) as const;
const fixedBytes = (fieldNumber: number, length: number) =>
  ({ dataType: 'bytes', fieldNumber, minLength: length, maxLength: length }) as const;

/** A cross-chain message (klayr-framework ccmSchema). */
export const ccmSchema = {
  $id: '/modules/interoperability/ccm',
  type: 'object',
  required: ['module', 'crossChainCommand', 'nonce', 'fee', 'sendingChainID', 'receivingChainID', 'params', 'status'],
  properties: {
    module: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 1 },
    crossChainCommand: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 2 },
    nonce: { dataType: 'uint64', fieldNumber: 3 },
    fee: { dataType: 'uint64', fieldNumber: 4 },
    sendingChainID: fixedBytes(5, 4),
    receivingChainID: fixedBytes(6, 4),
    params: { dataType: 'bytes', fieldNumber: 7 },
    status: { dataType: 'uint32', fieldNumber: 8 },
  },
} as const satisfies Schema;

/** The params of submitMainchainCrossChainUpdate / submitSidechainCrossChainUpdate (crossChainUpdateTransactionParams). */
export const crossChainUpdateParamsSchema = {
  $id: '/modules/interoperability/ccu',
  type: 'object',
  required: ['sendingChainID', 'certificate', 'activeValidatorsUpdate', 'certificateThreshold', 'inboxUpdate'],
  properties: {
    sendingChainID: fixedBytes(1, 4),
    certificate: bytes(2),
    activeValidatorsUpdate: {
      type: 'object',
      fieldNumber: 3,
      required: ['blsKeysUpdate', 'bftWeightsUpdate', 'bftWeightsUpdateBitmap'],
      properties: {
        blsKeysUpdate: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes', minLength: 48, maxLength: 48 } },
        bftWeightsUpdate: { type: 'array', fieldNumber: 2, items: { dataType: 'uint64' } },
        bftWeightsUpdateBitmap: bytes(3),
      },
    },
    certificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
    inboxUpdate: {
      type: 'object',
      fieldNumber: 5,
      required: ['crossChainMessages', 'messageWitnessHashes', 'outboxRootWitness'],
      properties: {
        crossChainMessages: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
        messageWitnessHashes: {
          type: 'array',
          fieldNumber: 2,
          items: { dataType: 'bytes', minLength: 32, maxLength: 32 },
        },
        outboxRootWitness: {
          type: 'object',
          fieldNumber: 3,
          required: ['bitmap', 'siblingHashes'],
          properties: {
            bitmap: bytes(1),
            siblingHashes: {
              type: 'array',
              fieldNumber: 2,
              items: { dataType: 'bytes', minLength: 32, maxLength: 32 },
            },
          },
        },
      },
    },
  },
} as const satisfies Schema;

export interface CCUParams {
  sendingChainID: Buffer;
  certificate: Buffer;
  activeValidatorsUpdate: { blsKeysUpdate: Buffer[]; bftWeightsUpdate: bigint[]; bftWeightsUpdateBitmap: Buffer };
  certificateThreshold: bigint;
  inboxUpdate: {
    crossChainMessages: Buffer[];
    messageWitnessHashes: Buffer[];
    outboxRootWitness: { bitmap: Buffer; siblingHashes: Buffer[] };
  };
}

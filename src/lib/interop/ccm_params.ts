import type { Schema } from '../codec/index.js';

/**
 * Params of the interoperability module's own cross-chain messages and the registration
 * signature message (klayr-framework 0.12.3 modules/interoperability/schemas.js).
 */

/** A 4-byte chain ID property. */
export const chainIDProperty = (fieldNumber: number) =>
  ({ dataType: 'bytes', fieldNumber, minLength: 4, maxLength: 4 }) as const;

export const registrationCCMParamsSchema = {
  $id: '/modules/interoperability/ccCommand/registration',
  type: 'object',
  required: ['name', 'chainID', 'messageFeeTokenID', 'minReturnFeePerByte'],
  properties: {
    name: { dataType: 'string', minLength: 1, maxLength: 32, fieldNumber: 1 },
    chainID: chainIDProperty(2),
    messageFeeTokenID: { dataType: 'bytes', minLength: 8, maxLength: 8, fieldNumber: 3 },
    minReturnFeePerByte: { dataType: 'uint64', fieldNumber: 4 },
  },
} as const satisfies Schema;

export interface RegistrationCCMParams {
  name: string;
  chainID: Buffer;
  messageFeeTokenID: Buffer;
  minReturnFeePerByte: bigint;
}

export const sidechainTerminatedCCMParamsSchema = {
  $id: '/modules/interoperability/ccCommand/sidechainTerminated',
  type: 'object',
  required: ['chainID', 'stateRoot'],
  properties: {
    chainID: chainIDProperty(1),
    stateRoot: { dataType: 'bytes', fieldNumber: 2, minLength: 32, maxLength: 32 },
  },
} as const satisfies Schema;

export interface SidechainTerminatedCCMParams {
  chainID: Buffer;
  stateRoot: Buffer;
}

/** A validator of a partner chain as a registration names it. */
export const activeValidatorsItems = (maxItems: number, fieldNumber: number) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      required: ['blsKey', 'bftWeight'],
      properties: {
        blsKey: { dataType: 'bytes', fieldNumber: 1, minLength: 48, maxLength: 48 },
        bftWeight: { dataType: 'uint64', fieldNumber: 2 },
      },
    },
    minItems: 1,
    fieldNumber,
    maxItems,
  }) as const;

/** What the mainchain validators sign for registerMainchain (tag KLY_CRM_, the sidechain's chain ID). */
export const registrationSignatureMessageSchema = {
  $id: '/modules/interoperability/sidechain/registrationSignatureMessage',
  type: 'object',
  required: ['ownChainID', 'ownName', 'mainchainValidators', 'mainchainCertificateThreshold'],
  properties: {
    ownChainID: chainIDProperty(1),
    ownName: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 32 },
    mainchainValidators: activeValidatorsItems(51, 3),
    mainchainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
  },
} as const satisfies Schema;

import type { Schema } from '../../../lib/codec/index.js';
import { activeValidatorsItems, chainIDProperty } from '../../../lib/interop/ccm_params.js';

/** Params of the interoperability commands (klayr-framework 0.12.3 modules/interoperability/schemas.js). */

const hashes = (fieldNumber: number) =>
  ({ type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 }, fieldNumber }) as const;

export const sidechainRegParamsSchema = {
  $id: '/modules/interoperability/mainchain/sidechainRegistration',
  type: 'object',
  required: ['chainID', 'name', 'sidechainValidators', 'sidechainCertificateThreshold'],
  properties: {
    chainID: chainIDProperty(1),
    name: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 32 },
    sidechainValidators: activeValidatorsItems(199, 3),
    sidechainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
  },
} as const satisfies Schema;

export const mainchainRegParamsSchema = {
  $id: '/modules/interoperability/sidechain/mainchainRegistration',
  type: 'object',
  required: [
    'ownChainID',
    'ownName',
    'mainchainValidators',
    'mainchainCertificateThreshold',
    'signature',
    'aggregationBits',
  ],
  properties: {
    ownChainID: chainIDProperty(1),
    ownName: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 32 },
    mainchainValidators: activeValidatorsItems(51, 3),
    mainchainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
    signature: { dataType: 'bytes', fieldNumber: 5, minLength: 96, maxLength: 96 },
    aggregationBits: { dataType: 'bytes', fieldNumber: 6 },
  },
} as const satisfies Schema;

export const terminateSidechainForLivenessParamsSchema = {
  $id: '/modules/interoperability/mainchain/terminateSidechainForLiveness',
  type: 'object',
  required: ['chainID'],
  properties: { chainID: chainIDProperty(1) },
} as const satisfies Schema;

export const messageRecoveryInitializationParamsSchema = {
  $id: '/modules/interoperability/mainchain/messageRecoveryInitialization',
  type: 'object',
  required: ['chainID', 'channel', 'bitmap', 'siblingHashes'],
  properties: {
    chainID: chainIDProperty(1),
    channel: { dataType: 'bytes', fieldNumber: 2 },
    bitmap: { dataType: 'bytes', fieldNumber: 3 },
    siblingHashes: hashes(4),
  },
} as const satisfies Schema;

export const messageRecoveryParamsSchema = {
  $id: '/modules/interoperability/mainchain/messageRecovery',
  type: 'object',
  required: ['chainID', 'crossChainMessages', 'idxs', 'siblingHashes'],
  properties: {
    chainID: { dataType: 'bytes', minLength: 4, maxLength: 4, fieldNumber: 1 },
    crossChainMessages: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
    idxs: { type: 'array', items: { dataType: 'uint32' }, fieldNumber: 3 },
    siblingHashes: hashes(4),
  },
} as const satisfies Schema;

export const stateRecoveryParamsSchema = {
  $id: '/modules/interoperability/mainchain/commands/stateRecovery',
  type: 'object',
  required: ['chainID', 'module', 'storeEntries', 'siblingHashes'],
  properties: {
    chainID: chainIDProperty(1),
    module: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 32 },
    storeEntries: {
      type: 'array',
      fieldNumber: 3,
      items: {
        type: 'object',
        properties: {
          substorePrefix: { dataType: 'bytes', fieldNumber: 1, minLength: 2, maxLength: 2 },
          storeKey: { dataType: 'bytes', fieldNumber: 2 },
          storeValue: { dataType: 'bytes', fieldNumber: 3 },
          bitmap: { dataType: 'bytes', fieldNumber: 4 },
        },
        required: ['substorePrefix', 'storeKey', 'storeValue', 'bitmap'],
      },
    },
    siblingHashes: hashes(4),
  },
} as const satisfies Schema;

export const stateRecoveryInitParamsSchema = {
  $id: '/modules/interoperability/mainchain/stateRecoveryInitialization',
  type: 'object',
  required: ['chainID', 'sidechainAccount', 'bitmap', 'siblingHashes'],
  properties: {
    chainID: chainIDProperty(1),
    sidechainAccount: { dataType: 'bytes', fieldNumber: 2 },
    bitmap: { dataType: 'bytes', fieldNumber: 3 },
    siblingHashes: hashes(4),
  },
} as const satisfies Schema;

export interface ValidatorEntry {
  blsKey: Buffer;
  bftWeight: bigint;
}
export interface SidechainRegParams {
  chainID: Buffer;
  name: string;
  sidechainValidators: ValidatorEntry[];
  sidechainCertificateThreshold: bigint;
}
export interface MainchainRegParams {
  ownChainID: Buffer;
  ownName: string;
  mainchainValidators: ValidatorEntry[];
  mainchainCertificateThreshold: bigint;
  signature: Buffer;
  aggregationBits: Buffer;
}
export interface MessageRecoveryInitializationParams {
  chainID: Buffer;
  channel: Buffer;
  bitmap: Buffer;
  siblingHashes: Buffer[];
}
export interface MessageRecoveryParams {
  chainID: Buffer;
  crossChainMessages: Buffer[];
  idxs: number[];
  siblingHashes: Buffer[];
}
export interface StateRecoveryParams {
  chainID: Buffer;
  module: string;
  storeEntries: { substorePrefix: Buffer; storeKey: Buffer; storeValue: Buffer; bitmap: Buffer }[];
  siblingHashes: Buffer[];
}
export interface StateRecoveryInitParams {
  chainID: Buffer;
  sidechainAccount: Buffer;
  bitmap: Buffer;
  siblingHashes: Buffer[];
}

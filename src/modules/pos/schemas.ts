import type { Schema } from '../../lib/codec/index.js';

const sharingCoefficients = {
  type: 'array',
  items: {
    type: 'object',
    required: ['tokenID', 'coefficient'],
    properties: {
      tokenID: { dataType: 'bytes', minLength: 8, maxLength: 8, fieldNumber: 1 },
      coefficient: { dataType: 'bytes', maxLength: 24, fieldNumber: 2 },
    },
  },
} as const;
const pendingUnlocks = {
  type: 'array',
  items: {
    type: 'object',
    required: ['validatorAddress', 'amount', 'unstakeHeight'],
    properties: {
      validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'klayr32' },
      amount: { dataType: 'uint64', fieldNumber: 2 },
      unstakeHeight: { dataType: 'uint32', fieldNumber: 3 },
    },
  },
} as const;
const stakes = {
  type: 'array',
  items: {
    type: 'object',
    required: ['validatorAddress', 'amount', 'sharingCoefficients'],
    properties: {
      validatorAddress: { dataType: 'bytes', format: 'klayr32', fieldNumber: 1 },
      amount: { dataType: 'uint64', fieldNumber: 2 },
      sharingCoefficients: { ...sharingCoefficients, fieldNumber: 3 },
    },
  },
} as const;

export const genesisStoreSchema = {
  $id: '/pos/module/genesis',
  type: 'object',
  required: ['validators', 'stakers', 'genesisData'],
  properties: {
    validators: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: [
          'address',
          'name',
          'blsKey',
          'proofOfPossession',
          'generatorKey',
          'lastGeneratedHeight',
          'isBanned',
          'reportMisbehaviorHeights',
          'consecutiveMissedBlocks',
          'commission',
          'lastCommissionIncreaseHeight',
          'sharingCoefficients',
        ],
        properties: {
          address: { dataType: 'bytes', format: 'klayr32', fieldNumber: 1 },
          name: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 20 },
          blsKey: { dataType: 'bytes', fieldNumber: 3, minLength: 48, maxLength: 48 },
          proofOfPossession: { dataType: 'bytes', fieldNumber: 4, minLength: 96, maxLength: 96 },
          generatorKey: { dataType: 'bytes', fieldNumber: 5, minLength: 32, maxLength: 32 },
          lastGeneratedHeight: { dataType: 'uint32', fieldNumber: 6 },
          isBanned: { dataType: 'boolean', fieldNumber: 7 },
          reportMisbehaviorHeights: { type: 'array', fieldNumber: 8, items: { dataType: 'uint32' } },
          consecutiveMissedBlocks: { dataType: 'uint32', fieldNumber: 9 },
          commission: { dataType: 'uint32', fieldNumber: 10, maximum: 10000 },
          lastCommissionIncreaseHeight: { dataType: 'uint32', fieldNumber: 11 },
          sharingCoefficients: { ...sharingCoefficients, fieldNumber: 12 },
        },
      },
    },
    stakers: {
      type: 'array',
      fieldNumber: 2,
      items: {
        type: 'object',
        required: ['address', 'stakes', 'pendingUnlocks'],
        properties: {
          address: { dataType: 'bytes', format: 'klayr32', fieldNumber: 1 },
          stakes: { ...stakes, fieldNumber: 2 },
          pendingUnlocks: { ...pendingUnlocks, fieldNumber: 3 },
        },
      },
    },
    genesisData: {
      type: 'object',
      fieldNumber: 3,
      required: ['initRounds', 'initValidators'],
      properties: {
        initRounds: { dataType: 'uint32', fieldNumber: 1 },
        initValidators: { type: 'array', fieldNumber: 2, items: { dataType: 'bytes', format: 'klayr32' } },
      },
    },
  },
} as const satisfies Schema;

export const validatorStoreSchema = {
  $id: '/pos/validator',
  type: 'object',
  required: [
    'name',
    'totalStake',
    'selfStake',
    'lastGeneratedHeight',
    'isBanned',
    'reportMisbehaviorHeights',
    'consecutiveMissedBlocks',
    'commission',
    'lastCommissionIncreaseHeight',
    'sharingCoefficients',
  ],
  properties: {
    name: { dataType: 'string', fieldNumber: 1 },
    totalStake: { dataType: 'uint64', fieldNumber: 2 },
    selfStake: { dataType: 'uint64', fieldNumber: 3 },
    lastGeneratedHeight: { dataType: 'uint32', fieldNumber: 4 },
    isBanned: { dataType: 'boolean', fieldNumber: 5 },
    reportMisbehaviorHeights: { type: 'array', fieldNumber: 6, items: { dataType: 'uint32' } },
    consecutiveMissedBlocks: { dataType: 'uint32', fieldNumber: 7 },
    commission: { dataType: 'uint32', fieldNumber: 8 },
    lastCommissionIncreaseHeight: { dataType: 'uint32', fieldNumber: 9 },
    sharingCoefficients: { ...sharingCoefficients, fieldNumber: 10 },
  },
} as const satisfies Schema;

export const nameStoreSchema = {
  $id: '/pos/name',
  type: 'object',
  required: ['validatorAddress'],
  properties: { validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'klayr32' } },
} as const satisfies Schema;

export const stakerStoreSchema = {
  $id: '/pos/staker',
  type: 'object',
  required: ['stakes', 'pendingUnlocks'],
  properties: { stakes: { ...stakes, fieldNumber: 1 }, pendingUnlocks: { ...pendingUnlocks, fieldNumber: 2 } },
} as const satisfies Schema;

export const previousTimestampStoreSchema = {
  $id: '/pos/store/previousTimestamp',
  type: 'object',
  required: ['timestamp'],
  properties: { timestamp: { dataType: 'uint32', fieldNumber: 1 } },
} as const satisfies Schema;

export const genesisDataStoreSchema = {
  $id: '/pos/store/genesis',
  type: 'object',
  required: ['height', 'initRounds', 'initValidators'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    initRounds: { dataType: 'uint32', fieldNumber: 2 },
    initValidators: { type: 'array', fieldNumber: 3, items: { dataType: 'bytes', format: 'klayr32' } },
  },
} as const satisfies Schema;

export interface SharingCoefficient {
  tokenID: Buffer;
  coefficient: Buffer;
}
export interface PendingUnlock {
  validatorAddress: Buffer;
  amount: bigint;
  unstakeHeight: number;
}
export interface Stake {
  validatorAddress: Buffer;
  amount: bigint;
  sharingCoefficients: SharingCoefficient[];
}
export interface GenesisValidator {
  address: Buffer;
  name: string;
  blsKey: Buffer;
  proofOfPossession: Buffer;
  generatorKey: Buffer;
  lastGeneratedHeight: number;
  isBanned: boolean;
  reportMisbehaviorHeights: number[];
  consecutiveMissedBlocks: number;
  commission: number;
  lastCommissionIncreaseHeight: number;
  sharingCoefficients: SharingCoefficient[];
}
export interface GenesisPoSStore {
  validators: GenesisValidator[];
  stakers: { address: Buffer; stakes: Stake[]; pendingUnlocks: PendingUnlock[] }[];
  genesisData: { initRounds: number; initValidators: Buffer[] };
}

export const snapshotStoreSchema = {
  $id: '/pos/store/snapshot',
  type: 'object',
  required: ['validatorWeightSnapshot'],
  properties: {
    validatorWeightSnapshot: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'weight'],
        properties: {
          address: { dataType: 'bytes', fieldNumber: 1, format: 'klayr32' },
          weight: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
  },
} as const satisfies Schema;

export const eligibleValidatorsStoreSchema = {
  $id: '/pos/eligibleValidators',
  type: 'object',
  required: ['lastReportMisbehaviorHeight'],
  properties: { lastReportMisbehaviorHeight: { dataType: 'uint32', fieldNumber: 1 } },
} as const satisfies Schema;

export interface ValidatorAccount {
  name: string;
  totalStake: bigint;
  selfStake: bigint;
  lastGeneratedHeight: number;
  isBanned: boolean;
  reportMisbehaviorHeights: number[];
  consecutiveMissedBlocks: number;
  commission: number;
  lastCommissionIncreaseHeight: number;
  sharingCoefficients: SharingCoefficient[];
}
export interface WeightedAddress {
  address: Buffer;
  weight: bigint;
}
export interface GenesisData {
  height: number;
  initRounds: number;
  initValidators: Buffer[];
}

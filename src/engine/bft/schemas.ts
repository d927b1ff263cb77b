import type { Schema } from '../../lib/codec/index.js';
import { BLS_PUBLIC_KEY_LENGTH, ED25519_PUBLIC_KEY_LENGTH } from './constants.js';

export { validatorsHashInputSchema } from '../../lib/chain/validators_hash.js';

export const bftParametersSchema = {
  $id: '/modules/bft/bftParameters',
  type: 'object',
  required: ['prevoteThreshold', 'precommitThreshold', 'certificateThreshold', 'validators', 'validatorsHash'],
  properties: {
    prevoteThreshold: { dataType: 'uint64', fieldNumber: 1 },
    precommitThreshold: { dataType: 'uint64', fieldNumber: 2 },
    certificateThreshold: { dataType: 'uint64', fieldNumber: 3 },
    validators: {
      type: 'array',
      fieldNumber: 4,
      items: {
        type: 'object',
        required: ['address', 'bftWeight', 'generatorKey', 'blsKey'],
        properties: {
          address: { dataType: 'bytes', format: 'klayr32', fieldNumber: 1 },
          bftWeight: { dataType: 'uint64', fieldNumber: 2 },
          generatorKey: {
            dataType: 'bytes',
            fieldNumber: 3,
            minLength: ED25519_PUBLIC_KEY_LENGTH,
            maxLength: ED25519_PUBLIC_KEY_LENGTH,
          },
          blsKey: {
            dataType: 'bytes',
            fieldNumber: 4,
            minLength: BLS_PUBLIC_KEY_LENGTH,
            maxLength: BLS_PUBLIC_KEY_LENGTH,
          },
        },
      },
    },
    validatorsHash: { dataType: 'bytes', fieldNumber: 5 },
  },
} as const satisfies Schema;

export const bftVotesSchema = {
  $id: '/modules/bft/bftVotes',
  type: 'object',
  required: [
    'maxHeightPrevoted',
    'maxHeightPrecommitted',
    'maxHeightCertified',
    'blockBFTInfos',
    'activeValidatorsVoteInfo',
  ],
  properties: {
    maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 1 },
    maxHeightPrecommitted: { dataType: 'uint32', fieldNumber: 2 },
    maxHeightCertified: { dataType: 'uint32', fieldNumber: 3 },
    blockBFTInfos: {
      type: 'array',
      fieldNumber: 4,
      items: {
        type: 'object',
        required: [
          'height',
          'generatorAddress',
          'maxHeightGenerated',
          'maxHeightPrevoted',
          'prevoteWeight',
          'precommitWeight',
        ],
        properties: {
          height: { dataType: 'uint32', fieldNumber: 1 },
          generatorAddress: { dataType: 'bytes', fieldNumber: 2 },
          maxHeightGenerated: { dataType: 'uint32', fieldNumber: 3 },
          maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 4 },
          prevoteWeight: { dataType: 'uint64', fieldNumber: 5 },
          precommitWeight: { dataType: 'uint64', fieldNumber: 6 },
        },
      },
    },
    activeValidatorsVoteInfo: {
      type: 'array',
      fieldNumber: 5,
      items: {
        type: 'object',
        required: ['address', 'minActiveHeight', 'largestHeightPrecommit'],
        properties: {
          address: { dataType: 'bytes', fieldNumber: 1 },
          minActiveHeight: { dataType: 'uint32', fieldNumber: 2 },
          largestHeightPrecommit: { dataType: 'uint32', fieldNumber: 3 },
        },
      },
    },
  },
} as const satisfies Schema;

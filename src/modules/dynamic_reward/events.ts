import type { Schema } from '../../lib/codec/index.js';

export const rewardMintedSchema = {
  $id: '/reward/events/rewardMintedData',
  type: 'object',
  required: ['amount', 'reduction'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 }, reduction: { dataType: 'uint32', fieldNumber: 2 } },
} as const satisfies Schema;

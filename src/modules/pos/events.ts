import type { MethodContext } from '../../engine/state_machine/module.js';
import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { MODULE_NAME } from './stores.js';

const address = (fieldNumber: number) => ({ dataType: 'bytes', format: 'klayr32', fieldNumber }) as const;

export const posEventSchemas = {
  // Klayr's registration order, which system_getMetadata lists
  validatorBanned: {
    $id: '/pos/events/validatorBannedData',
    type: 'object',
    required: ['address', 'height'],
    properties: { address: address(1), height: { dataType: 'uint32', fieldNumber: 2 } },
  },
  validatorPunished: {
    $id: '/pos/events/punishValidatorData',
    type: 'object',
    required: ['address', 'height'],
    properties: { address: address(1), height: { dataType: 'uint32', fieldNumber: 2 } },
  },
  validatorRegistered: {
    $id: '/pos/events/registerValidatorData',
    type: 'object',
    required: ['address', 'name'],
    properties: { address: address(1), name: { dataType: 'string', fieldNumber: 2 } },
  },
  validatorStaked: {
    $id: '/pos/events/validatorStakedData',
    type: 'object',
    required: ['senderAddress', 'validatorAddress', 'amount', 'result'],
    properties: {
      senderAddress: address(1),
      validatorAddress: address(2),
      amount: { dataType: 'sint64', fieldNumber: 3 },
      result: { dataType: 'uint32', fieldNumber: 4 },
    },
  },
  commissionChange: {
    $id: '/pos/events/commissionChangeData',
    type: 'object',
    required: ['validatorAddress', 'oldCommission', 'newCommission'],
    properties: {
      validatorAddress: address(1),
      oldCommission: { dataType: 'uint32', fieldNumber: 2 },
      newCommission: { dataType: 'uint32', fieldNumber: 3 },
    },
  },
  rewardsAssigned: {
    $id: '/pos/events/rewardsAssignedData',
    type: 'object',
    required: ['stakerAddress', 'validatorAddress', 'tokenID', 'amount'],
    properties: {
      stakerAddress: address(1),
      validatorAddress: address(2),
      tokenID: { dataType: 'bytes', minLength: 8, maxLength: 8, fieldNumber: 3 },
      amount: { dataType: 'uint64', fieldNumber: 4 },
    },
  },
} as const satisfies Record<string, Schema>;

type PosEvent = keyof typeof posEventSchemas;
const codecs = Object.fromEntries(
  Object.entries(posEventSchemas).map(([name, schema]) => [name, compile<Record<string, unknown>>(schema)]),
) as Record<PosEvent, CompiledSchema<Record<string, unknown>>>;

/** Klayr's validatorStaked results: 0 success, then the reason a stake failed. */
export const STAKE_RESULT = {
  SUCCESS: 0,
  INVALID_VALIDATOR: 1,
  INVALID_UNSTAKE: 2,
  TOO_MANY_PENDING_UNLOCKS: 3,
  TOO_MANY_SENT_STAKES: 4,
} as const;

export const logPosEvent = (
  ctx: Pick<MethodContext, 'events'>,
  name: PosEvent,
  data: Record<string, unknown>,
  topics: Buffer[],
  noRevert = false,
): void => ctx.events.add(MODULE_NAME, name, codecs[name].encode(data), topics, noRevert);

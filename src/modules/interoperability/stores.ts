import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { Schema } from '../../lib/codec/index.js';
import {
  INTEROPERABILITY_MODULE_NAME,
  INTEROPERABILITY_STORE_PREFIX,
  INTEROPERABILITY_SUBSTORES,
} from '../../lib/interop/store_keys.js';
import { computeSubstorePrefix } from '../../lib/state/keys.js';
import {
  chainAccountSchema,
  chainValidatorsSchema,
  channelDataSchema,
  ownChainAccountSchema,
  registeredNamesSchema,
  terminatedOutboxSchema,
  terminatedStateSchema,
} from './schemas.js';

/** The module name, store prefix (sha256("interoperability")[0..4] with the top bit set) and substore indices, shared with the chainConnector plugin. */
export const MODULE_NAME = INTEROPERABILITY_MODULE_NAME;
export const STORE_PREFIX = INTEROPERABILITY_STORE_PREFIX;
export const INTEROP_STORES = INTEROPERABILITY_SUBSTORES;

export const outboxRootSchema = {
  $id: '/modules/interoperability/outbox',
  type: 'object',
  required: ['root'],
  properties: { root: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 1 } },
} as const satisfies Schema;

/** The substores with their value schemas, in Klayr's registration order. */
export const INTEROP_STORE_DECLARATIONS = [
  { index: INTEROP_STORES.outboxRoot, schema: outboxRootSchema },
  { index: INTEROP_STORES.chainAccount, schema: chainAccountSchema },
  { index: INTEROP_STORES.ownChainAccount, schema: ownChainAccountSchema },
  { index: INTEROP_STORES.channelData, schema: channelDataSchema },
  { index: INTEROP_STORES.chainValidators, schema: chainValidatorsSchema },
  { index: INTEROP_STORES.terminatedState, schema: terminatedStateSchema },
  { index: INTEROP_STORES.terminatedOutbox, schema: terminatedOutboxSchema },
  { index: INTEROP_STORES.registeredNames, schema: registeredNamesSchema },
];

export const interopStore = (ctx: Pick<GenesisContext, 'store'>, name: keyof typeof INTEROP_STORES) =>
  ctx.store(STORE_PREFIX, computeSubstorePrefix(INTEROP_STORES[name]));

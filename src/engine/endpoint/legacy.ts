import { databaseKeyNotFound, KLAYR_DB_KEY, klayrChainKey } from '../../lib/chain/klayr_not_found.js';
import type { EncodedLegacyBlock } from '../../lib/chain/legacy_block.js';
import { legacyBlockToJSON, legacyTransactionToJSON } from '../../lib/chain/legacy_block.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import type { LegacyStore } from '../legacy/legacy_store.js';

/** A legacy bracket of the config (`legacy.brackets`). */
export interface LegacyBracketConfig {
  startHeight: number;
  snapshotHeight: number;
  snapshotBlockID: string;
}

/**
 * The RPC front's params checks (Kestrel's rule for every endpoint: hex of the right length,
 * heights as uint32). Klayr checks in the handler only (any even-length hex, any number >= 0): its
 * messages are kept there, and answer what the schemas let through (a missing `id` or `height`).
 */
const idParams = {
  type: 'object',
  properties: { id: { type: 'string', format: 'hex', minLength: 64, maxLength: 64 } },
} as const;
const heightParams = {
  type: 'object',
  properties: { height: { type: 'integer', minimum: 0, maximum: 0xffffffff } },
} as const;

const INVALID_ID = 'Invalid parameters. `id` must be a valid hex string.';
const INVALID_HEIGHT = 'Invalid parameters. `height` must be zero or a positive number.';

/** @klayr/validator's isHexString: a string of whole bytes in hex, or empty. */
const isHexString = (value: unknown): value is string =>
  typeof value === 'string' && (value === '' || /^([0-9a-f]{2})+$/i.test(value));

/**
 * The key klayr-framework reads in its legacy.db (engine/legacy/utils.js): `<table>:` then the bytes
 * as a 'binary' string, written back as UTF-8. Its error for a missing record names that key.
 */
const klayrKey = (table: string, bytes: Buffer): Buffer => Buffer.from(`${table}:${bytes.toString('binary')}`);

const idParam = (params: Record<string, unknown>): Buffer => {
  const { id } = params;
  if (!isHexString(id)) throw new Error(INVALID_ID);
  return Buffer.from(id, 'hex');
};

const transactionsOfBlock = (store: LegacyStore, id: Buffer): Buffer[] => {
  const transactions = store.transactionsOf(id);
  if (transactions !== undefined) return transactions;
  const ids = store.transactionIDsOf(id);
  const missing = ids?.find((txID) => store.transactionByID(txID) === undefined);
  throw databaseKeyNotFound(
    missing === undefined ? klayrKey('transactions:blockID', id) : klayrKey('transactions:id', missing),
  );
};

const blockOrThrow = (store: LegacyStore, id: Buffer): EncodedLegacyBlock => {
  const block = store.blockByID(id);
  if (block === undefined) throw databaseKeyNotFound(klayrKey('blocks:id', id));
  return block;
};

/**
 * The engine's legacy namespace (klayr-framework's LegacyEndpoint): the legacy chain's blocks and
 * transactions that legacy sync stored, and the progress of each bracket of the config, with
 * Klayr's parameter checks and its error messages.
 */
export const legacyEngineEndpoints = (
  brackets: readonly LegacyBracketConfig[],
  store: LegacyStore,
): Record<string, EndpointDefinition> => ({
  getTransactionByID: {
    params: idParams,
    description: 'A legacy transaction by ID.',
    handler: ({ params }) => {
      const id = idParam(params);
      const transaction = store.transactionByID(id);
      if (transaction === undefined) throw databaseKeyNotFound(klayrKey('transactions:id', id));
      return legacyTransactionToJSON(transaction);
    },
  },
  getTransactionsByBlockID: {
    params: idParams,
    description: 'The transactions of a legacy block.',
    handler: ({ params }) => transactionsOfBlock(store, idParam(params)).map(legacyTransactionToJSON),
  },
  getBlockByID: {
    params: idParams,
    description: 'A legacy block by ID.',
    handler: ({ params }) => legacyBlockToJSON(blockOrThrow(store, idParam(params))),
  },
  getBlockByHeight: {
    params: heightParams,
    description: 'A legacy block by height.',
    handler: ({ params }) => {
      const { height } = params;
      if (typeof height !== 'number' || height < 0) throw new Error(INVALID_HEIGHT);
      // Klayr writes the height into 4 bytes as given: a fraction is cut, more than 32 bits is Node's RangeError
      const key = Buffer.alloc(4);
      key.writeUIntBE(height, 0, 4);
      const id = store.idAtHeight(key.readUInt32BE(0));
      if (id === undefined) throw databaseKeyNotFound(klayrKey('blocks:height', key));
      return legacyBlockToJSON(blockOrThrow(store, id));
    },
  },
  getLegacyBrackets: {
    description: 'Each legacy bracket of the config with its sync progress (the lowest height stored so far).',
    handler: () =>
      brackets.map(({ snapshotBlockID }) => {
        const id = Buffer.from(snapshotBlockID, 'hex');
        const info = store.bracket(id);
        if (info === undefined) throw databaseKeyNotFound(klayrChainKey(KLAYR_DB_KEY.legacyBrackets, id));
        return { ...info, snapshotBlockID };
      }),
  },
});

import { blockHeaderID, blockToJSON, decodeBlockHeader } from '../../lib/chain/block.js';
import { EVENT_KEY_LENGTH, eventToJSON, proveEvents } from '../../lib/chain/events.js';
import { databaseKeyNotFound, KLAYR_DB_KEY, klayrChainKey } from '../../lib/chain/klayr_not_found.js';
import { addressToKlayr32 } from '../../lib/crypto/address.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import { hexBetween, hexBytes, MAX_BLOCK_HEADER_BYTES } from '../../lib/endpoint/params.js';
import { transactionToJSON } from '../../lib/transaction/transaction.js';
import { proofToJSON } from '../../lib/tree/proof_json.js';
import { areHeadersContradicting } from '../bft/index.js';
import type { BlockStore } from '../chain/block_store.js';
import type { Chain } from '../chain/chain.js';
import type { EventStore } from '../chain/event_store.js';

const heightParams = {
  type: 'object',
  required: ['height'],
  properties: { height: { type: 'integer', minimum: 0, maximum: 0xffffffff } },
} as const;
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'hex', minLength: 64, maxLength: 64 } },
} as const;

/** Looks each ID up, in order, stopping at the first that is not stored (Klayr's getBlocksByIDs/getTransactionsByIDs). */
const untilMissing = <T>(ids: readonly string[], find: (id: Buffer) => T | undefined): T[] => {
  const found: T[] = [];
  for (const id of ids) {
    const item = find(parseHex(id, 'id', 32));
    if (item === undefined) break;
    found.push(item);
  }
  return found;
};

/** The chain namespace over stored blocks (the endpoints that need only the block store). */
const atHeight = (blocks: BlockStore, height: number) => {
  const block = blocks.byHeight(height);
  if (block === undefined) throw databaseKeyNotFound(klayrChainKey(KLAYR_DB_KEY.blocksByHeight, height));
  return block;
};

export const chainEndpoints = (blocks: BlockStore, events: EventStore): Record<string, EndpointDefinition> => ({
  getLastBlock: {
    description: 'The last block of the chain.',
    handler: () => {
      const block = blocks.last();
      if (block === undefined) throw new Error('The chain has no block yet.');
      return blockToJSON(block);
    },
  },
  getBlockByHeight: {
    description: 'The block at a height.',
    params: heightParams,
    handler: ({ params }) => {
      return blockToJSON(atHeight(blocks, params.height as number));
    },
  },
  getBlocksByIDs: {
    description: 'Blocks by ID, in order, up to the first ID that is not stored.',
    params: {
      type: 'object',
      required: ['ids'],
      properties: { ids: { type: 'array', minItems: 1, items: idParams.properties.id } },
    },
    handler: ({ params }) => untilMissing(params.ids as string[], (id) => blocks.byID(id)).map(blockToJSON),
  },
  getBlocksByHeightBetween: {
    description: 'Blocks with from <= height <= to, highest first.',
    params: {
      type: 'object',
      required: ['from', 'to'],
      properties: { from: heightParams.properties.height, to: heightParams.properties.height },
    },
    handler: ({ params }) => {
      const out = [];
      const top = Math.min(params.to as number, blocks.lastHeight() ?? -1);
      for (let h = top; h >= (params.from as number); h--) {
        const block = blocks.byHeight(h);
        if (block !== undefined) out.push(blockToJSON(block));
      }
      return out;
    },
  },
  getTransactionsByHeight: {
    params: heightParams,
    handler: ({ params }) => atHeight(blocks, params.height as number).transactions.map(transactionToJSON),
  },
  getAssetsByHeight: {
    params: heightParams,
    handler: ({ params }) =>
      atHeight(blocks, params.height as number).assets.map((a) => ({ module: a.module, data: a.data.toString('hex') })),
  },
  getEvents: {
    description: 'The events of the block at a height (as long as they are kept).',
    params: heightParams,
    handler: ({ params }) => events.at(params.height as number).map(eventToJSON),
  },
  getTransactionByID: {
    description: 'A committed transaction by ID.',
    params: idParams,
    handler: ({ params }) => {
      const id = parseHex(params.id, 'id', 32);
      const tx = blocks.transactionByID(id);
      if (tx === undefined) throw databaseKeyNotFound(klayrChainKey(KLAYR_DB_KEY.transactionsByID, id));
      return transactionToJSON(tx);
    },
  },
  getTransactionsByIDs: {
    description: 'Committed transactions by ID, in order, up to the first ID that is not stored.',
    params: {
      type: 'object',
      required: ['ids'],
      properties: { ids: { type: 'array', minItems: 1, items: idParams.properties.id } },
    },
    handler: ({ params }) =>
      untilMissing(params.ids as string[], (id) => blocks.transactionByID(id)).map(transactionToJSON),
  },
  proveEvents: {
    description:
      'A proof of event-tree keys (8-byte topic hash || 4-byte index) against the eventRoot of the block at a height.',
    params: {
      type: 'object',
      required: ['height', 'queries'],
      properties: {
        height: heightParams.properties.height,
        queries: { type: 'array', items: hexBytes(EVENT_KEY_LENGTH) },
      },
    },
    handler: ({ params }) => {
      const proof = proveEvents(
        events.at(params.height as number),
        (params.queries as string[]).map((q) => parseHex(q, 'query', EVENT_KEY_LENGTH)),
      );
      return proofToJSON(proof);
    },
  },
  getBlockByID: {
    description: 'The block with an ID.',
    params: idParams,
    handler: ({ params }) => {
      const id = parseHex(params.id, 'id', 32);
      const block = blocks.byID(id);
      if (block === undefined) throw databaseKeyNotFound(klayrChainKey(KLAYR_DB_KEY.blocksByID, id));
      return blockToJSON(block);
    },
  },
});

/** The chain methods that need BFT: the generator list of the coming round and header contradiction (LIP 0058). */
export const chainBFTEndpoints = (
  chain: Chain,
  now: () => number = () => Math.floor(Date.now() / 1000),
): Record<string, EndpointDefinition> => ({
  getGeneratorList: {
    description: 'The validators in slot order from the current slot, with the start time of their next slot.',
    handler: () => ({
      list: chain.bft
        .getGeneratorList(chain.engineView(), now())
        .map((g) => ({ address: addressToKlayr32(g.address), nextAllocatedTime: g.nextAllocatedTime })),
    }),
  },
  getInclusionProofsAtHeight: {
    description: 'The proof of system.inclusionProofKeys saved after the block at a height (empty when none was kept).',
    params: heightParams,
    handler: ({ params }) => ({ proof: proofToJSON(chain.inclusionProofsAt(params.height as number)) }),
  },
  areHeadersContradicting: {
    description: 'Whether two encoded block headers from the same generator contradict each other.',
    params: {
      type: 'object',
      required: ['header1', 'header2'],
      properties: { header1: hexBetween(1, MAX_BLOCK_HEADER_BYTES), header2: hexBetween(1, MAX_BLOCK_HEADER_BYTES) },
    },
    handler: ({ params }) => {
      const h1 = decodeBlockHeader(parseHex(params.header1, 'header1'));
      const h2 = decodeBlockHeader(parseHex(params.header2, 'header2'));
      return { valid: areHeadersContradicting({ ...h1, id: blockHeaderID(h1) }, { ...h2, id: blockHeaderID(h2) }) };
    },
  },
});

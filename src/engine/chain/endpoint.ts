import { blockToJSON } from '../../lib/chain/block.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import type { BlockStore } from './block_store.js';

const heightParams = { type: 'object', required: ['height'], properties: { height: { type: 'integer', minimum: 0, maximum: 0xffffffff } } } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'hex', minLength: 64, maxLength: 64 } } } as const;

/** The chain namespace over stored blocks (the endpoints that need only the block store). */
export const chainEndpoints = (blocks: BlockStore): Record<string, EndpointDefinition> => ({
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
      const block = blocks.byHeight(params.height as number);
      if (block === undefined) throw new Error(`Block with height ${String(params.height)} does not exist.`);
      return blockToJSON(block);
    },
  },
  getBlockByID: {
    description: 'The block with an ID.',
    params: idParams,
    handler: ({ params }) => {
      const block = blocks.byID(parseHex(params.id, 'id', 32));
      if (block === undefined) throw new Error(`Block with id ${String(params.id)} does not exist.`);
      return blockToJSON(block);
    },
  },
});

import { decodeBlockHeader, blockHeaderID } from '../../lib/chain/block.js';
import { addressToKlayr32 } from '../../lib/crypto/address.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { hexBetween, MAX_BLOCK_HEADER_BYTES } from '../../rpc/params.js';
import { areHeadersContradicting } from '../bft/index.js';
import type { BFTParameters } from '../bft/index.js';
import type { ChainProcessor } from './processor.js';
import { proofToJSON } from '../../lib/tree/proof_json.js';

const heightParams = { type: 'object', required: ['height'], properties: { height: { type: 'integer', minimum: 0, maximum: 0xffffffff } } } as const;

const parametersToJSON = (p: BFTParameters) => ({
  validators: p.validators.map((v) => ({ address: addressToKlayr32(v.address), bftWeight: v.bftWeight.toString(), blsKey: v.blsKey.toString('hex') })),
  certificateThreshold: p.certificateThreshold.toString(),
  precommitThreshold: p.precommitThreshold.toString(),
  prevoteThreshold: p.prevoteThreshold.toString(),
  validatorsHash: p.validatorsHash.toString('hex'),
});

/** The consensus namespace: BFT heights and parameters from the committed engine state, as Klayr Core answers. */
export const consensusEndpoints = (chain: ChainProcessor): Record<string, EndpointDefinition> => ({
  getBFTHeights: { handler: () => chain.bft.getBFTHeights(chain.engineView()) },
  getBFTParameters: { params: heightParams, handler: ({ params }) => parametersToJSON(chain.bft.getBFTParameters(chain.engineView(), params.height as number)) },
  getBFTParametersActiveValidators: {
    params: heightParams,
    handler: ({ params }) => parametersToJSON(chain.bft.getBFTParametersActiveValidators(chain.engineView(), params.height as number)),
  },
});

/** The chain methods that need BFT: the generator list of the coming round and header contradiction (LIP 0058). */
export const chainBFTEndpoints = (chain: ChainProcessor, now: () => number = () => Math.floor(Date.now() / 1000)): Record<string, EndpointDefinition> => ({
  getGeneratorList: {
    description: 'The validators in slot order from the current slot, with the start time of their next slot.',
    handler: () => ({
      list: chain.bft.getGeneratorList(chain.engineView(), now()).map((g) => ({ address: addressToKlayr32(g.address), nextAllocatedTime: g.nextAllocatedTime })),
    }),
  },
  getInclusionProofsAtHeight: {
    description: 'The proof of system.inclusionProofKeys saved after the block at a height (empty when none was kept).',
    params: heightParams,
    handler: ({ params }) => ({ proof: proofToJSON(chain.inclusionProofsAt(params.height as number)) }),
  },
  areHeadersContradicting: {
    description: 'Whether two encoded block headers from the same generator contradict each other.',
    params: { type: 'object', required: ['header1', 'header2'], properties: { header1: hexBetween(1, MAX_BLOCK_HEADER_BYTES), header2: hexBetween(1, MAX_BLOCK_HEADER_BYTES) } },
    handler: ({ params }) => {
      const h1 = decodeBlockHeader(parseHex(params.header1, 'header1'));
      const h2 = decodeBlockHeader(parseHex(params.header2, 'header2'));
      return { valid: areHeadersContradicting({ ...h1, id: blockHeaderID(h1) }, { ...h2, id: blockHeaderID(h2) }) };
    },
  },
});

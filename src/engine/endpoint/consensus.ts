import { addressToKlayr32 } from '../../lib/crypto/address.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import type { BFTParameters } from '../bft/index.js';
import { BFTParameterNotFoundError } from '../bft/index.js';
import type { Chain } from '../chain/chain.js';

const heightParams = {
  type: 'object',
  required: ['height'],
  properties: { height: { type: 'integer', minimum: 0, maximum: 0xffffffff } },
} as const;

const parametersToJSON = (p: BFTParameters) => ({
  validators: p.validators.map((v) => ({
    address: addressToKlayr32(v.address),
    bftWeight: v.bftWeight.toString(),
    blsKey: v.blsKey.toString('hex'),
  })),
  certificateThreshold: p.certificateThreshold.toString(),
  precommitThreshold: p.precommitThreshold.toString(),
  prevoteThreshold: p.prevoteThreshold.toString(),
  validatorsHash: p.validatorsHash.toString('hex'),
});

/** Klayr's BFTParameterNotFoundError has no message; RPC clients get one that says what is missing. */
const atHeight = <T>(height: number, read: () => T): T => {
  try {
    return read();
  } catch (e) {
    if (e instanceof BFTParameterNotFoundError)
      throw new Error(`No BFT parameters apply at height ${height} (they start at the height after the genesis block)`);
    throw e;
  }
};

/** The consensus namespace: BFT heights and parameters from the committed engine state, as Klayr Core answers. */
export const consensusEndpoints = (chain: Chain): Record<string, EndpointDefinition> => ({
  getBFTHeights: { handler: () => chain.bft.getBFTHeights(chain.engineView()) },
  getBFTParameters: {
    params: heightParams,
    handler: ({ params }) =>
      atHeight(params.height as number, () =>
        parametersToJSON(chain.bft.getBFTParameters(chain.engineView(), params.height as number)),
      ),
  },
  getBFTParametersActiveValidators: {
    params: heightParams,
    handler: ({ params }) =>
      atHeight(params.height as number, () =>
        parametersToJSON(chain.bft.getBFTParametersActiveValidators(chain.engineView(), params.height as number)),
      ),
  },
});

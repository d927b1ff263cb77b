export { areDistinctHeadersContradicting, areHeadersContradicting } from '../../lib/chain/contradiction.js';
export * from './constants.js';
export { BFTParameterNotFoundError } from './errors.js';
export type { ImpliesMaxPrevotesHeader } from './implies_max_prevotes.js';
export { impliesMaximalPrevotes } from './implies_max_prevotes.js';
export type { BFTConfig, GeneratorSlot } from './method.js';
export { BFTMethod } from './method.js';
export { BFTModule } from './module.js';
export {
  BFTParametersCache,
  deleteBFTParameters,
  existBFTParameters,
  getBFTParameters,
  getNextHeightBFTParameters,
} from './parameters.js';
export { bftParametersSchema, bftVotesSchema, validatorsHashInputSchema } from './schemas.js';
export { setBFTParameters } from './set_parameters.js';
export { bftParametersStore, bftVotesStore, heightKey, readBFTVotes, writeBFTVotes } from './stores.js';
export type * from './types.js';

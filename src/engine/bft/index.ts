export { BFTModule } from './module.js';
export { BFTMethod } from './method.js';
export type { BFTConfig, GeneratorSlot } from './method.js';
export { BFTParameterNotFoundError } from './errors.js';
export { areDistinctHeadersContradicting, areHeadersContradicting } from '../../lib/chain/contradiction.js';
export { impliesMaximalPrevotes } from './implies_max_prevotes.js';
export type { ImpliesMaxPrevotesHeader } from './implies_max_prevotes.js';
export {
  getBFTParameters,
  existBFTParameters,
  getNextHeightBFTParameters,
  deleteBFTParameters,
  BFTParametersCache,
} from './parameters.js';
export { setBFTParameters } from './set_parameters.js';
export { bftParametersStore, bftVotesStore, heightKey, readBFTVotes, writeBFTVotes } from './stores.js';
export { bftParametersSchema, bftVotesSchema, validatorsHashInputSchema } from './schemas.js';
export * from './constants.js';
export type * from './types.js';

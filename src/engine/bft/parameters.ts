import { compile, RecentDecodes } from '../../lib/codec/index.js';
import { getOrCreate } from '../../lib/collections.js';
import type { SubStore } from '../state/substore.js';
import type { IterateOptions } from '../state/types.js';
import { MAX_UINT32 } from './constants.js';
import { BFTParameterNotFoundError } from './errors.js';
import { bftParametersSchema } from './schemas.js';
import { heightKey, keyHeight } from './stores.js';
import type { BFTParameters } from './types.js';

// a block reads the sets of the last three rounds, each several times; they change once a round
const decodedParameters = new RecentDecodes<BFTParameters>(compile<BFTParameters>(bftParametersSchema), 8);

/** Stored parameters in a key range, decoded (shared and frozen: read only). */
const parametersIn = (store: SubStore, options: IterateOptions): { key: Buffer; value: BFTParameters }[] =>
  store.iterate(options).map(({ key, value }) => ({ key, value: decodedParameters.decode(value) }));

/** The parameters that apply at `height`: those stored at the greatest height not above it (frozen: read only). */
export const getBFTParameters = (store: SubStore, height: number): BFTParameters => {
  const [latest] = parametersIn(store, { gte: heightKey(0), lte: heightKey(height), limit: 1, reverse: true });
  if (latest === undefined) throw new BFTParameterNotFoundError(height);
  return latest.value;
};

/** Whether parameters were stored exactly at `height` (a validator set change takes effect there). */
export const existBFTParameters = (store: SubStore, height: number): boolean => store.has(heightKey(height));

/** The lowest height above `height` at which parameters are stored. */
export const getNextHeightBFTParameters = (store: SubStore, height: number): number => {
  const [next] = store.iterate({ gte: heightKey(height + 1), lte: heightKey(MAX_UINT32), limit: 1 });
  if (next === undefined) throw new BFTParameterNotFoundError(height + 1);
  return keyHeight(next.key);
};

/** Removes parameters stored at or below `height`, keeping the greatest of them (it still applies at `height`). */
export const deleteBFTParameters = (store: SubStore, height: number): void => {
  const stale = store.iterate({ gte: heightKey(0), lte: heightKey(height) });
  for (const { key } of stale.slice(0, -1)) store.del(key);
};

/** Parameters per height, looked up once for the whole range a block's vote update touches. */
export class BFTParametersCache {
  /** The sets that apply within the cached range, by the height they apply from, highest first. */
  #inRange: { height: number; value: BFTParameters }[] = [];
  #from = 0;
  #to = -1;
  readonly #outside = new Map<number, BFTParameters>();

  constructor(private readonly store: SubStore) {}

  cache(from: number, to: number): void {
    const stored = parametersIn(this.store, { gte: heightKey(from), lte: heightKey(to), reverse: true });
    const candidates = stored.map(({ key, value }) => ({ height: keyHeight(key), value }));
    // Parameters stored below the range still apply at its start. Klayr skips this lookup when
    // the range starts at 0, so a missing height-0 entry is the "Invalid state" error below.
    if (from > 0) candidates.push({ height: from, value: getBFTParameters(this.store, from) });
    // every height of the range needs a set applying at it: the lowest must apply from its start
    const lowest = candidates.at(-1);
    if (from <= to && (lowest === undefined || lowest.height > from))
      throw new Error('Invalid state. BFT parameters should always exist in cache range');
    this.#inRange = candidates;
    this.#from = from;
    this.#to = to;
  }

  getParameters(height: number): BFTParameters {
    if (height >= this.#from && height <= this.#to) {
      const applying = this.#inRange.find((c) => c.height <= height);
      if (applying !== undefined) return applying.value;
    }
    return getOrCreate(this.#outside, height, (h) => getBFTParameters(this.store, h));
  }
}

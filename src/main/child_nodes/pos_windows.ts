import type { BoundedWindow } from '../../modules/pos/config.js';
import { posWindowBounds, posWindowValues } from '../../modules/pos/config.js';

/**
 * The PoS settings a chain with this block time needs: Klayr's defaults of the windows bounded by
 * the block time are too short below 4-second blocks and too long above 43-second ones, so a
 * default out of bounds is set to the nearest bound; the others are left out.
 */
export const posWindows = (blockTime: number): Partial<Record<BoundedWindow, number>> => {
  const { minimum, maximum } = posWindowBounds(blockTime);
  return Object.fromEntries(
    Object.entries(posWindowValues({}))
      .filter(([, blocks]) => blocks < minimum || blocks > maximum)
      .map(([key, blocks]) => [key, Math.min(Math.max(blocks, minimum), maximum)]),
  );
};

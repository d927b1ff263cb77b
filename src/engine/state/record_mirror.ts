import { sortedIndex } from '../../lib/collections.js';
import type { Entry, IterateOptions } from './types.js';

/**
 * Every record of a small database in memory, for point and range reads that need no LMDB cursor: keys as
 * latin1 strings, whose order is LMDB's byte order. Values go out as the mirror holds them, to read only (as
 * a StateOverlay's values): a write replaces a record's buffer, never changes it, so a value read earlier
 * keeps its bytes. Copies cost more than the reads: the BFT votes (14 KB) are read five times a block.
 */
export class RecordMirror {
  readonly #values = new Map<string, Buffer>();
  /** The keys in order, sorted again on the first range read after a change. */
  #sorted: string[] | undefined;

  constructor(entries: Iterable<{ key: Uint8Array; value: Uint8Array }>) {
    for (const { key, value } of entries) this.#values.set(Buffer.from(key).toString('latin1'), Buffer.from(value));
  }

  get(key: Buffer): Buffer | undefined {
    return this.#values.get(key.toString('latin1'));
  }

  /** Writes (a value, taken as it is: a block state's values are never changed) and removals (undefined), in order. */
  apply(changes: Iterable<{ key: Buffer; value: Buffer | undefined }>): void {
    for (const { key, value } of changes) {
      const k = key.toString('latin1');
      if (value === undefined) this.#values.delete(k);
      else this.#values.set(k, value);
    }
    this.#sorted = undefined;
  }

  /** The records with gte <= key <= lte, descending when `reverse`, at most `limit` of them (readRange's reads). */
  range(options: IterateOptions): Entry[] {
    const { limit = Number.POSITIVE_INFINITY, reverse } = options;
    this.#sorted ??= [...this.#values.keys()].sort();
    const sorted = this.#sorted;
    const from = sortedIndex(sorted, options.gte.toString('latin1'));
    const to = sortedIndex(sorted, options.lte.toString('latin1'), true);
    const out: Entry[] = [];
    const take = (k: string): void => {
      out.push({ key: Buffer.from(k, 'latin1'), value: this.#values.get(k) as Buffer });
    };
    if (reverse === true) for (let i = to - 1; i >= from && out.length < limit; i--) take(sorted[i] as string);
    else for (let i = from; i < to && out.length < limit; i++) take(sorted[i] as string);
    return out;
  }
}

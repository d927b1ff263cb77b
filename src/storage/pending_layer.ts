import { sortedIndex } from '../lib/collections.js';

/** One key's latest write not yet in LMDB: a value, or undefined for a removal. */
export interface PendingEntry {
  readonly key: Buffer;
  readonly value: Buffer | undefined;
}

/** One database's keys with writes not yet in LMDB: latest value per key, and who wrote it. */
interface LayerEntry extends PendingEntry {
  /** Sequence number of the write set that wrote it last. */
  readonly set: number;
}

/** A latin1 string of the key bytes: JS string order is then LMDB's byte order (memcmp, shorter first). */
export const keyString = (key: Uint8Array): string =>
  Buffer.isBuffer(key)
    ? key.toString('latin1')
    : Buffer.from(key.buffer, key.byteOffset, key.length).toString('latin1');

const mergeSorted = (a: readonly string[], b: readonly string[]): string[] => {
  const out: string[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length)
    out[k++] = (a[i] as string) <= (b[j] as string) ? (a[i++] as string) : (b[j++] as string);
  while (i < a.length) out[k++] = a[i++] as string;
  while (j < b.length) out[k++] = b[j++] as string;
  return out;
};

/** Bounds of a key range as latin1 strings: keys k with low <= k < high (or <= high when inclusive). */
export interface StringRange {
  readonly low?: string;
  readonly lowExclusive?: boolean;
  readonly high?: string;
  readonly highInclusive?: boolean;
}

/** Whether `key` lies within `range`. */
export const inStringRange = (key: string, range: StringRange): boolean =>
  (range.low === undefined || (range.lowExclusive === true ? key > range.low : key >= range.low)) &&
  (range.high === undefined || (range.highInclusive === true ? key <= range.high : key < range.high));

/**
 * The writes of one LMDB database that are not in LMDB yet, by key: point lookups in a map; a
 * sorted key index built on the first range read and kept up to date cheaply after it (new keys
 * sorted and merged in at the next range read, keys gone filtered out), so databases never read
 * by range (the tree's nodes) never pay for sorting.
 */
export class PendingLayer {
  readonly #entries = new Map<string, LayerEntry>();
  #sorted: string[] | undefined;
  #added: string[] = [];
  #dropped = 0;

  get size(): number {
    return this.#entries.size;
  }

  lookup(key: string): PendingEntry | undefined {
    return this.#entries.get(key);
  }

  write(key: string, entry: PendingEntry, set: number): void {
    if (this.#sorted !== undefined && !this.#entries.has(key)) this.#added.push(key);
    this.#entries.set(key, { key: entry.key, value: entry.value, set });
  }

  /** Forgets `key` if no set after `set` wrote it (its value is in LMDB now). */
  flushed(key: string, set: number): void {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.set > set) return;
    this.#entries.delete(key);
    if (this.#sorted !== undefined) this.#dropped++;
  }

  /** The pending entries in `range`, in key order. */
  range(range: StringRange): PendingEntry[] {
    const sorted = this.#sortedKeys();
    const out: PendingEntry[] = [];
    for (let i = range.low === undefined ? 0 : sortedIndex(sorted, range.low); i < sorted.length; i++) {
      const key = sorted[i] as string;
      if (!inStringRange(key, range)) {
        if (range.high !== undefined && key > range.high) break;
        continue;
      }
      const entry = this.#entries.get(key);
      if (entry !== undefined) out.push(entry);
    }
    return out;
  }

  #sortedKeys(): string[] {
    if (this.#sorted === undefined || this.#dropped > this.#entries.size) {
      this.#sorted = [...this.#entries.keys()].sort();
      this.#added = [];
      this.#dropped = 0;
    } else if (this.#added.length > 0) {
      this.#sorted = mergeSorted(this.#sorted, this.#added.sort());
      this.#added = [];
    }
    // keys forgotten since the index was built are skipped by range (not in #entries)
    return this.#sorted;
  }
}

/**
 * Merges LMDB's entries of a range with pending writes over the same range, both in iteration
 * order: a pending value replaces LMDB's, a pending removal hides it, `limit` counts what is left.
 */
export function* mergeRange<T extends { key: Buffer }>(
  stored: Iterable<T>,
  pending: readonly PendingEntry[],
  descending: boolean,
  limit: number | undefined,
  fromPending: (entry: PendingEntry & { value: Buffer }) => T,
): Generator<T> {
  let left = limit ?? Number.POSITIVE_INFINITY;
  if (left <= 0) return;
  let p = 0;
  const before = (a: Buffer, b: Buffer): boolean => (descending ? Buffer.compare(a, b) > 0 : Buffer.compare(a, b) < 0);
  // yields the pending entries ordered before `key` (all of them when undefined); true when the limit is reached
  function* pendingUpTo(key: Buffer | undefined): Generator<T, boolean> {
    while (p < pending.length) {
      const entry = pending[p] as PendingEntry;
      if (key !== undefined && !before(entry.key, key)) return false;
      p++;
      if (entry.value === undefined) continue;
      yield fromPending({ key: entry.key, value: entry.value });
      if (--left <= 0) return true;
    }
    return false;
  }
  for (const item of stored) {
    if (yield* pendingUpTo(item.key)) return;
    const same = p < pending.length && (pending[p] as PendingEntry).key.equals(item.key);
    if (same) {
      const entry = pending[p++] as PendingEntry;
      if (entry.value === undefined) continue;
      yield fromPending({ key: entry.key, value: entry.value });
    } else yield item;
    if (--left <= 0) return;
  }
  yield* pendingUpTo(undefined);
}

import type { Database } from 'lmdb';
import type { PendingEntry, StringRange } from './pending_layer.js';
import { keyString, mergeRange } from './pending_layer.js';

type BinaryDB = Database<Buffer, Buffer>;

/** Writes of one database that LMDB does not hold yet, as reads must see them. */
export interface PendingSource {
  lookup(key: Buffer): PendingEntry | undefined;
  hasPending(): boolean;
  /** The pending entries in `range`, ascending. */
  range(range: StringRange): PendingEntry[];
}

/** What committed reads ask of an environment's pending writes (write_behind.ts, pending_mirror.ts). */
export interface PendingReads {
  /** The pending write of `key` in `db` (one of the environment's databases): undefined when LMDB has its latest value. */
  lookupIn(db: BinaryDB, key: Buffer): PendingEntry | undefined;
}

const registry = new WeakMap<object, PendingReads>();

/** Makes `reads` the pending writes of the environment `root` (one per environment). */
export const registerPendingReads = (root: object, reads: PendingReads): void => {
  if (registry.has(root)) throw new Error('The environment has pending writes registered already');
  registry.set(root, reads);
};

/** The environment's pending writes, if any are tracked. */
export const pendingReadsOf = (root: object): PendingReads | undefined => registry.get(root);

/**
 * `get` and `getRange` of `db` that see `source`'s pending writes (unless given an explicit read
 * transaction: an LMDB snapshot is asked for); lmdb-js answers getKeys through getRange, so keys
 * see them too. With nothing pending they cost one check per call.
 */
export const pendingReadOverrides = (db: BinaryDB, source: PendingSource) => {
  const get = db.get.bind(db);
  const getRange = db.getRange.bind(db);
  type GetOptions = Parameters<BinaryDB['get']>[1];
  type RangeOptions = NonNullable<Parameters<BinaryDB['getRange']>[0]>;
  return {
    get: (key: Buffer, options?: GetOptions): Buffer | undefined => {
      if (options?.transaction === undefined) {
        const pending = source.lookup(key);
        if (pending !== undefined) return pending.value;
      }
      return get(key, options);
    },
    getRange: (options: RangeOptions & { values?: boolean } = {}) => {
      if (options.transaction !== undefined || !source.hasPending()) return getRange(options);
      const { limit, ...unlimited } = checkedRange(options);
      const pending = source.range(stringRange(options));
      const reverse = options.reverse === true;
      if (reverse) pending.reverse();
      if (options.values !== false) return mergeRange(getRange(unlimited), pending, reverse, limit, (entry) => entry);
      const storedKeys = getRange(unlimited) as unknown as Iterable<Buffer>;
      return mapIterable(
        mergeRange(
          mapIterable(storedKeys, (key) => ({ key })),
          pending,
          reverse,
          limit,
          ({ key }) => ({ key }),
        ),
        ({ key }) => key,
      );
    },
  };
};

function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** Range options the merge implements; anything else is refused while writes are pending. */
const checkedRange = <
  T extends {
    limit?: number;
    offset?: number;
    versions?: boolean;
    onlyCount?: boolean;
    start?: unknown;
    end?: unknown;
  },
>(
  options: T,
): T => {
  if (options.offset !== undefined || options.versions === true || options.onlyCount === true)
    throw new Error('Write-behind: ranges with offset, versions or counts are not supported while writes are pending');
  for (const bound of [options.start, options.end]) {
    if (bound !== undefined && !Buffer.isBuffer(bound))
      throw new Error('Write-behind: range bounds must be Buffers while writes are pending');
  }
  return options;
};

/** lmdb-js range semantics as string bounds: forward [start, end), reverse (end, start]; the flags flip one end. */
const stringRange = (options: {
  start?: unknown;
  end?: unknown;
  reverse?: boolean;
  inclusiveEnd?: boolean;
  exclusiveStart?: boolean;
}): StringRange => {
  const start = Buffer.isBuffer(options.start) ? keyString(options.start) : undefined;
  const end = Buffer.isBuffer(options.end) ? keyString(options.end) : undefined;
  const startExclusive = options.exclusiveStart === true;
  const endInclusive = options.inclusiveEnd === true;
  return options.reverse === true
    ? { low: end, lowExclusive: !endInclusive, high: start, highInclusive: !startExclusive }
    : { low: start, lowExclusive: startExclusive, high: end, highInclusive: endInclusive };
};

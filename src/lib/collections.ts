/** The map's value for `key`, made by `create(key)` and stored the first time it is asked for (a Map or a WeakMap). */
export const getOrCreate = <K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  create: (key: K) => V,
): V => {
  let value = map.get(key);
  if (value === undefined) {
    value = create(key);
    map.set(key, value);
  }
  return value;
};

/** Removes the map's first-inserted entry: the oldest, for a bounded cache that evicts in insertion order. */
export const deleteOldest = <K, V>(map: Map<K, V>): void => {
  const oldest = map.keys().next();
  if (oldest.done !== true) map.delete(oldest.value);
};

/** First index of `sorted` (ascending strings) whose element is >= `key`, or > `key` when `after` (binary search). */
export const sortedIndex = (sorted: readonly string[], key: string, after = false): number => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const k = sorted[middle] as string;
    if (k < key || (after && k === key)) low = middle + 1;
    else high = middle;
  }
  return low;
};

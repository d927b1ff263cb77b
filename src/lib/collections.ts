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

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge where later layers win; arrays are replaced, not concatenated (as Klayr Core merges configs). */
export const mergeConfig = <T>(base: T, ...layers: unknown[]): T => {
  let out: unknown = structuredClone(base);
  for (const layer of layers) out = mergeTwo(out, layer);
  return out as T;
};

const mergeTwo = (a: unknown, b: unknown): unknown => {
  if (b === undefined) return a;
  if (!isPlainObject(a) || !isPlainObject(b)) return structuredClone(b);
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = mergeTwo(a[key], value);
  return out;
};

/**
 * `value`, which the caller's logic guarantees is there (an index inside bounds, a key it has just stored); where it is
 * not, an invariant is broken, and this says which value was missing instead of failing later on `undefined`.
 */
export const required = <T>(value: T | undefined | null, what: string): T => {
  if (value === undefined || value === null) throw new Error(`${what} is missing.`);
  return value;
};

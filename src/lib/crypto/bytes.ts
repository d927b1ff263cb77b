/**
 * Parses hex, rejecting odd lengths and non-hex characters. Buffer.from stops at the first pair
 * that is not hex (or a lone last digit), so a full-length result is the whole check.
 */
export const parseHex = (hex: unknown, name = 'value', length?: number): Buffer => {
  const out = typeof hex === 'string' ? Buffer.from(hex, 'hex') : undefined;
  if (out === undefined || out.length * 2 !== (hex as string).length)
    throw new TypeError(`${name} must be an even-length hex string`);
  if (length !== undefined && out.length !== length)
    throw new TypeError(`${name} must be ${length} bytes (${length * 2} hex characters), got ${out.length}`);
  return out;
};

export const assertLength = (bytes: unknown, length: number, name: string): Uint8Array => {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name} must be a Buffer or Uint8Array`);
  if (bytes.length !== length) throw new TypeError(`${name} must be ${length} bytes, got ${bytes.length}`);
  return bytes;
};

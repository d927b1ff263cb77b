const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Parses hex, rejecting odd lengths and non-hex characters (Buffer.from silently truncates them). */
export const parseHex = (hex: unknown, name = 'value', length?: number): Buffer => {
  if (typeof hex !== 'string' || !HEX.test(hex)) throw new TypeError(`${name} must be an even-length hex string`);
  const out = Buffer.from(hex, 'hex');
  if (length !== undefined && out.length !== length) throw new TypeError(`${name} must be ${length} bytes (${length * 2} hex characters), got ${out.length}`);
  return out;
};

export const assertLength = (bytes: unknown, length: number, name: string): Uint8Array => {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name} must be a Buffer or Uint8Array`);
  if (bytes.length !== length) throw new TypeError(`${name} must be ${length} bytes, got ${bytes.length}`);
  return bytes;
};

import type { CompiledSchema } from './codec.js';

/** A decoded value's objects and arrays copied (byte fields, strings, numbers and bigints shared: none is changed in place). */
const copyDecoded = <T>(value: T): T => {
  if (Array.isArray(value)) return value.map(copyDecoded) as T;
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) out[field] = copyDecoded(inner);
  return out as T;
};

const deepFreeze = <T>(value: T): T => {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
};

/**
 * The encoding of one record that is written again every block (BFT's votes, random's reveals), as this
 * thread last wrote it, with a frozen copy of the value it encodes: the next block reads exactly those bytes
 * back, and a copy of a value costs a small part of decoding kilobytes. Keyed by content, so it answers for
 * whichever state holds those bytes; other bytes are decoded.
 */
export class LastWritten<T> {
  #bytes: Buffer | undefined;
  #value: Readonly<T> | undefined;

  constructor(private readonly codec: CompiledSchema<T>) {}

  /** The encoding of `value`, remembered with a copy of it (the caller may change `value` afterwards). */
  encode(value: T): Buffer {
    const bytes = this.codec.encode(value);
    this.#bytes = bytes;
    this.#value = deepFreeze(copyDecoded(value));
    return bytes;
  }

  /** The value `bytes` encode, the caller's own to change. */
  decode(bytes: Uint8Array): T {
    const known = this.#known(bytes);
    return known === undefined ? this.codec.decode(bytes) : copyDecoded(known as T);
  }

  /** The value `bytes` encode when they are the last written (frozen, shared: read only); else undefined. */
  shared(bytes: Uint8Array): Readonly<T> | undefined {
    return this.#known(bytes);
  }

  #known(bytes: Uint8Array): Readonly<T> | undefined {
    return this.#bytes?.equals(bytes) === true ? this.#value : undefined;
  }
}

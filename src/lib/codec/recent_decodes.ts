import type { CompiledSchema } from './codec.js';

/** Freezes a decoded value's objects and arrays (byte fields cannot be frozen, and are not). */
const freezeDecoded = (value: unknown): void => {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array || Object.isFrozen(value)) return;
  for (const field of Object.values(value)) freezeDecoded(field);
  Object.freeze(value);
};

/**
 * Decodes through a memo of the last `capacity` distinct encodings, for records that several readers
 * decode alike and that seldom change (the BFT parameters, read four to six times a block, change once a
 * round). The decoded values are shared, so they are frozen: a reader that changes what it read must
 * decode its own copy. Each is decoded from a private copy of its bytes (decoded byte fields point into
 * them, and a database may reuse the buffers it returns).
 */
export class RecentDecodes<T> {
  readonly #entries: { bytes: Buffer; value: T }[] = [];

  constructor(
    private readonly codec: CompiledSchema<T>,
    private readonly capacity: number,
  ) {}

  decode(bytes: Uint8Array): T {
    const entries = this.#entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (entry.bytes.equals(bytes)) {
        if (i > 0) entries.unshift(...entries.splice(i, 1));
        return entry.value;
      }
    }
    const own = Buffer.from(bytes);
    const value = this.codec.decode(own);
    freezeDecoded(value);
    entries.unshift({ bytes: own, value });
    if (entries.length > this.capacity) entries.pop();
    return value;
  }
}

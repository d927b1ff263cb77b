import type { CompiledSchema } from './codec.js';

/**
 * The encoding of one record that is written again every block (BFT's votes, random's reveals), as this
 * thread last wrote it, with a copy of the value it encodes: the next block reads exactly those bytes back,
 * and copying a value costs a small part of decoding kilobytes (BFT's votes at 309 block infos: 7-11 µs with
 * their own copy function against 126-193 µs). Keyed by content, so it answers for whichever state holds
 * those bytes; other bytes are decoded. `copy` must copy every object and array of a value: one written for
the record's shape (a generic copy walking any value's fields took 45 µs for the votes).
 */
export class LastWritten<T> {
  #bytes: Buffer | undefined;
  #value: T | undefined;
  /** One copy of #value for every reader that only reads it, made on the first such read after a write. */
  #shared: T | undefined;

  constructor(
    private readonly codec: CompiledSchema<T>,
    private readonly copy: (value: T) => T,
  ) {}

  /** The encoding of `value` (held here too: never to be changed), remembered with a copy of `value` (the caller may change it afterwards). */
  encode(value: T): Buffer {
    const bytes = this.codec.encode(value);
    this.#bytes = bytes;
    this.#value = this.copy(value);
    this.#shared = undefined;
    return bytes;
  }

  /** A copy of the value `bytes` encode when they are the ones last written, else undefined. */
  copyOf(bytes: Uint8Array): T | undefined {
    return this.#value !== undefined && this.#written(bytes) ? this.copy(this.#value) : undefined;
  }

  /**
   * The value `bytes` encode when they are the ones last written, one copy shared by every reader that only
   * reads it (they must not change it: a copy each, or freezing it, cost more than the readers' work), else
   * undefined.
   */
  sharedOf(bytes: Uint8Array): Readonly<T> | undefined {
    if (this.#value === undefined || !this.#written(bytes)) return undefined;
    this.#shared ??= this.copy(this.#value);
    return this.#shared;
  }

  /** Whether `bytes` are the ones last written (often the very buffer: the engine's state hands it back). */
  #written(bytes: Uint8Array): boolean {
    return this.#bytes !== undefined && (this.#bytes === bytes || this.#bytes.equals(bytes));
  }

  /** The value `bytes` encode, the caller's own to change. */
  decode(bytes: Uint8Array): T {
    return this.copyOf(bytes) ?? this.codec.decode(bytes);
  }
}

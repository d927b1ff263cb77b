import { compile } from '../../lib/codec/index.js';
import type { Schema } from '../../lib/codec/index.js';
import type { Entry, IterateOptions, StateReadWriter } from './types.js';

/** One module substore: keys are relative to `storePrefix || substorePrefix`; values may be typed with a codec schema. */
export class SubStore {
  readonly #prefix: Buffer;

  constructor(
    private readonly state: StateReadWriter,
    storePrefix: Buffer,
    substorePrefix: Buffer,
  ) {
    if (storePrefix.length !== 4 || substorePrefix.length !== 2) throw new Error('Store prefix must be 4 bytes and substore prefix 2 bytes');
    this.#prefix = Buffer.concat([storePrefix, substorePrefix]);
  }

  #full(key: Buffer): Buffer {
    if (!(key instanceof Uint8Array)) throw new TypeError('State keys must be bytes');
    return Buffer.concat([this.#prefix, key]);
  }

  get(key: Buffer): Buffer | undefined {
    return this.state.get(this.#full(key));
  }

  has(key: Buffer): boolean {
    return this.state.has(this.#full(key));
  }

  set(key: Buffer, value: Buffer): void {
    this.state.set(this.#full(key), value);
  }

  del(key: Buffer): void {
    this.state.del(this.#full(key));
  }

  getWithSchema<T>(key: Buffer, schema: Schema): T | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : compile<T>(schema).decode(value);
  }

  setWithSchema<T>(key: Buffer, value: T, schema: Schema): void {
    this.set(key, compile<T>(schema).encode(value));
  }

  /** Entries with gte <= key <= lte (keys relative to the substore). */
  iterate(options: IterateOptions): Entry[] {
    return this.state
      .iterate({ ...options, gte: this.#full(options.gte), lte: this.#full(options.lte) })
      .map(({ key, value }) => ({ key: key.subarray(this.#prefix.length), value }));
  }

  iterateWithSchema<T>(options: IterateOptions, schema: Schema): { key: Buffer; value: T }[] {
    const c = compile<T>(schema);
    return this.iterate(options).map(({ key, value }) => ({ key, value: c.decode(value) }));
  }
}

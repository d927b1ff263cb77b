import { stateKeyNotFound } from '../../lib/chain/klayr_not_found.js';
import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { Entry, IterateOptions, StateReadWriter } from './types.js';

/** storePrefix || substorePrefix per pair of prefix buffers (the shared, memoized ones): built once instead of per store access. */
// written out rather than with lib/collections' getOrCreate: on this per-store-access path the shared helper measured slower
const combinedPrefixes = new WeakMap<Buffer, WeakMap<Buffer, Buffer>>();

const combinedPrefix = (storePrefix: Buffer, substorePrefix: Buffer): Buffer => {
  let bySubstore = combinedPrefixes.get(storePrefix);
  if (bySubstore === undefined) {
    bySubstore = new WeakMap();
    combinedPrefixes.set(storePrefix, bySubstore);
  }
  let prefix = bySubstore.get(substorePrefix);
  if (prefix === undefined) {
    if (storePrefix.length !== 4 || substorePrefix.length !== 2)
      throw new Error('Store prefix must be 4 bytes and substore prefix 2 bytes');
    prefix = Buffer.concat([storePrefix, substorePrefix]);
    bySubstore.set(substorePrefix, prefix);
  }
  return prefix;
};

/** One module substore: keys are relative to `storePrefix || substorePrefix`; values may be typed with a codec schema. */
export class SubStore {
  readonly #prefix: Buffer;

  constructor(
    private readonly state: StateReadWriter,
    storePrefix: Buffer,
    substorePrefix: Buffer,
  ) {
    this.#prefix = combinedPrefix(storePrefix, substorePrefix);
  }

  #full(key: Buffer): Buffer {
    if (!(key instanceof Uint8Array)) throw new TypeError('State keys must be bytes');
    const full = Buffer.allocUnsafe(this.#prefix.length + key.length);
    this.#prefix.copy(full, 0);
    full.set(key, this.#prefix.length);
    return full;
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

  /** Klayr's error for a missing entry (lisk-db StateDB's NotFoundError), naming the full state key. */
  notFound(key: Buffer): Error {
    return stateKeyNotFound(this.#full(key));
  }

  getWithSchema<T>(key: Buffer, schema: Schema): T | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : compile<T>(schema).decode(value);
  }

  setWithSchema<T>(key: Buffer, value: T, schema: Schema): void {
    // the encoded value is this call's own: the state may keep it without a copy
    this.setOwned(key, compile<T>(schema).encode(value));
  }

  /** set without a copy where the state allows it: `value` must never be changed afterwards, by anyone. */
  setOwned(key: Buffer, value: Buffer): void {
    if (this.state.setOwned !== undefined) this.state.setOwned(this.#full(key), value);
    else this.state.set(this.#full(key), value);
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

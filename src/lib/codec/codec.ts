import type { DecodeFn } from './decoder.js';
import { generateDecoder } from './decoder.js';
import type { EncodeFn } from './encoder.js';
import { generateEncoder } from './encoder.js';
import { CodecError } from './errors.js';
import { generateJSONMapper } from './json.js';
import type { ObjectNode } from './schema_tree.js';
import { buildSchemaTree } from './schema_tree.js';
import type { Schema } from './types.js';
import type { Validator } from './validate.js';
import { assertValid, compileValidator } from './validate.js';
import { createWriter } from './writer.js';

const writer = createWriter(64 * 1024);
/** Up to this many bytes, an encoding is copied out byte by byte. */
const SHORT_COPY = 48;

/** Everything generated for one schema; parts are built on first use. */
export class CompiledSchema<T = Record<string, unknown>> {
  readonly #tree: ObjectNode;
  #encode?: EncodeFn;
  #decode?: DecodeFn;
  #toJSON?: (v: unknown, p: string) => unknown;
  #fromJSON?: (v: unknown, p: string) => unknown;
  #validator?: Validator;

  constructor(readonly schema: Schema) {
    this.#tree = buildSchemaTree(schema);
  }

  encode(value: T): Buffer {
    this.#encode ??= generateEncoder(this.#tree);
    writer.pos = 0;
    this.#encode(writer, value);
    const length = writer.pos;
    const out = Buffer.allocUnsafe(length);
    // most encodings are short (state values, event data): a loop beats the native copy's call
    if (length <= SHORT_COPY) for (let i = 0; i < length; i++) out[i] = writer.buf[i];
    else writer.buf.copy(out, 0, 0, length);
    return out;
  }

  decode(bytes: Uint8Array): T {
    if (!(bytes instanceof Uint8Array)) throw new CodecError('decode expects a Buffer or Uint8Array');
    this.#decode ??= generateDecoder(this.#tree);
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return this.#decode({ buf, pos: 0 }, buf.length) as T;
  }

  toJSON<J = Record<string, unknown>>(value: T): J {
    this.#toJSON ??= generateJSONMapper(this.#tree, 'toJSON');
    return this.#toJSON(value, '') as J;
  }

  fromJSON(json: unknown): T {
    this.#fromJSON ??= generateJSONMapper(this.#tree, 'fromJSON');
    return this.#fromJSON(json, '') as T;
  }

  /** Throws a ValidationError listing every way `value` breaks the schema's constraints. */
  validate(value: unknown): asserts value is T {
    this.#validator ??= compileValidator(this.schema);
    assertValid(this.#validator, value);
  }

  decodeJSON<J = Record<string, unknown>>(bytes: Uint8Array): J {
    return this.toJSON<J>(this.decode(bytes));
  }

  encodeJSON(json: unknown): Buffer {
    return this.encode(this.fromJSON(json));
  }
}

const cache = new WeakMap<Schema, CompiledSchema<never>>();

/** The compiled form of a schema object, cached by identity. */
export const compile = <T = Record<string, unknown>>(schema: Schema): CompiledSchema<T> => {
  let compiled = cache.get(schema);
  if (compiled === undefined) {
    compiled = new CompiledSchema<never>(schema);
    cache.set(schema, compiled);
  }
  return compiled as unknown as CompiledSchema<T>;
};

/** Drop-in shape of @klayr/codec's `codec` object. */
export const codec = {
  encode: <T>(schema: Schema, value: T): Buffer => compile<T>(schema).encode(value),
  decode: <T = Record<string, unknown>>(schema: Schema, bytes: Uint8Array): T => compile<T>(schema).decode(bytes),
  toJSON: <J = Record<string, unknown>>(schema: Schema, value: unknown): J => compile<unknown>(schema).toJSON<J>(value),
  fromJSON: <T = Record<string, unknown>>(schema: Schema, json: unknown): T => compile<T>(schema).fromJSON(json),
  encodeJSON: (schema: Schema, json: unknown): Buffer => compile<unknown>(schema).encodeJSON(json),
  decodeJSON: <J = Record<string, unknown>>(schema: Schema, bytes: Uint8Array): J =>
    compile<unknown>(schema).decodeJSON<J>(bytes),
  validate: (schema: Schema, value: unknown): void => compile<unknown>(schema).validate(value),
};

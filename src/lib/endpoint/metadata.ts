import type { Schema, SchemaProperty } from '../codec/index.js';
import { computeSubstorePrefix } from '../state/keys.js';

/** A JSON schema as Klayr publishes it for an endpoint's request or response. */
export type JSONSchema = SchemaProperty;

export interface EndpointMetadata {
  readonly name: string;
  readonly request?: JSONSchema;
  readonly response?: JSONSchema;
}

export interface StoreMetadata {
  readonly key: string;
  readonly data: Schema;
}

/** A module's metadata as system_getMetadata lists it, in the key order Klayr's modules give it. */
export interface ModuleMetadata {
  commands: { name: string; params: unknown }[];
  events: { name: string; data: unknown }[];
  stores: { key: string; data: unknown }[];
  endpoints: { name: string; request?: unknown; response?: unknown }[];
  assets: { version: number; data: unknown }[];
  name: string;
}

/** A store as metadata names it: store prefix and substore prefix in hex. */
export const storeMetadata = (storePrefix: Buffer, substoreIndex: number, data: Schema): StoreMetadata => ({
  key: Buffer.concat([storePrefix, computeSubstorePrefix(substoreIndex)]).toString('hex'),
  data,
});

// building blocks of Klayr's endpoint JSON schemas
export const stringOf = (format: string) => ({ type: 'string', format }) as const;
export const klayr32 = stringOf('klayr32');
export const hex = stringOf('hex');
export const hexOfLength = (length: number) =>
  ({ type: 'string', format: 'hex', minLength: length, maxLength: length }) as const;
export const uint64String = stringOf('uint64');
export const uint32Integer = { type: 'integer', format: 'uint32' } as const;
export const booleanType = { type: 'boolean' } as const;
export const stringType = { type: 'string' } as const;
export const arrayOf = <I extends JSONSchema>(items: I) => ({ type: 'array', items }) as const;

/** An object schema with properties and, when given, the required list (Klayr's key order does not matter to readers). */
export const objectSchema = <P extends Record<string, JSONSchema>>(
  properties: P,
  required?: readonly (keyof P & string)[],
) => ({ type: 'object', ...(required !== undefined ? { required } : {}), properties }) as const;

/** A top-level endpoint schema: an object schema with its $id. */
export const endpointSchema = <P extends Record<string, JSONSchema>>(
  $id: string,
  properties: P,
  required?: readonly (keyof P & string)[],
) => ({ $id, ...objectSchema(properties, required) });

/** Klayr's data schema of events that carry no data. */
export const emptySchema = { $id: '/klayr/empty', type: 'object', properties: {} } as const satisfies Schema;

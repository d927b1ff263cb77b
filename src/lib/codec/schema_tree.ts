import { CodecError } from './errors.js';
import type { DataType, Schema, SchemaProperty } from './types.js';

const DATA_TYPES: ReadonlySet<string> = new Set(['uint32', 'sint32', 'uint64', 'sint64', 'string', 'bytes', 'boolean']);
const MAX_FIELD_NUMBER = 2 ** 29 - 1;

export type ItemNode = { kind: 'scalar'; dataType: DataType; format?: string } | ObjectNode;

export interface FieldNode {
  readonly name: string;
  readonly fieldNumber: number;
  /** Path of the field for error messages, e.g. `.header.height`. */
  readonly path: string;
  /** The wire key bytes (minimal varint of fieldNumber << 3 | wireType). */
  readonly key: readonly number[];
  readonly array: boolean;
  readonly item: ItemNode;
  /** Not in the parent's `required` list: an encoder skips it when the value leaves it out, as @klayr/codec does. */
  readonly optional: boolean;
}

export interface ObjectNode {
  readonly kind: 'object';
  readonly fields: readonly FieldNode[];
}

export const wireType = (item: ItemNode, array: boolean): number => {
  if (array || item.kind === 'object') return 2;
  return item.dataType === 'bytes' || item.dataType === 'string' ? 2 : 0;
};

const keyBytes = (fieldNumber: number, wt: number): number[] => {
  let value = fieldNumber * 8 + wt;
  const out: number[] = [];
  while (value > 0x7f) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
};

/** True when an array of this item type is written packed (one key, one length, all values). */
export const isPacked = (item: ItemNode): boolean =>
  item.kind === 'scalar' && item.dataType !== 'bytes' && item.dataType !== 'string';

const fail = (path: string, message: string): never => {
  throw new CodecError(`Invalid schema: ${message}`, path === '' ? '<root>' : path);
};

const buildItem = (prop: SchemaProperty, path: string): ItemNode => {
  if (prop.type === 'object') return buildObject(prop, path);
  if (prop.type === 'array') fail(path, 'arrays of arrays are not supported');
  if (typeof prop.dataType !== 'string' || !DATA_TYPES.has(prop.dataType)) {
    return fail(path, `"dataType" must be one of ${[...DATA_TYPES].join(', ')}`);
  }
  return typeof prop.format === 'string'
    ? { kind: 'scalar', dataType: prop.dataType, format: prop.format }
    : { kind: 'scalar', dataType: prop.dataType };
};

const buildObject = (schema: SchemaProperty, path: string): ObjectNode => {
  const { properties } = schema;
  if (typeof properties !== 'object' || properties === null) return fail(path, 'object without "properties"');
  const seen = new Set<number>();
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields: FieldNode[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const fieldPath = `${path}.${name}`;
    const { fieldNumber } = prop;
    if (
      typeof fieldNumber !== 'number' ||
      !Number.isInteger(fieldNumber) ||
      fieldNumber < 1 ||
      fieldNumber > MAX_FIELD_NUMBER
    ) {
      return fail(fieldPath, '"fieldNumber" must be an integer between 1 and 2^29-1');
    }
    if (seen.has(fieldNumber)) fail(fieldPath, `duplicate fieldNumber ${fieldNumber}`);
    seen.add(fieldNumber);
    const array = prop.type === 'array';
    let itemSchema = prop;
    if (array) {
      if (typeof prop.items !== 'object' || prop.items === null) return fail(fieldPath, 'array without "items"');
      itemSchema = prop.items;
    }
    const item = buildItem(itemSchema, fieldPath);
    fields.push({
      name,
      fieldNumber,
      path: fieldPath,
      key: keyBytes(fieldNumber, wireType(item, array)),
      array,
      item,
      optional: !required.has(name),
    });
  }
  fields.sort((a, b) => a.fieldNumber - b.fieldNumber);
  return { kind: 'object', fields };
};

/** Checks a codec schema and turns it into the tree the encoder, decoder and JSON mappers are generated from. */
export const buildSchemaTree = (schema: Schema): ObjectNode => {
  if (typeof schema !== 'object' || schema === null) return fail('', 'schema must be an object');
  if (schema.type !== 'object') fail('', 'root "type" must be "object"');
  return buildObject(schema, '');
};

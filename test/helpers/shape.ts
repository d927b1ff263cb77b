import assert from 'node:assert/strict';

/**
 * The shape of an RPC answer in the spec's terms (node-rpc-interface.md, "What the service does"
 * 8-10): amounts are decimal-integer strings, heights and counts JSON numbers, addresses klayr32,
 * keys, hashes and roots lowercase hex. An object shape lists every field: a missing one and one the
 * shape does not name are both mismatches.
 */
export type Shape =
  | 'string'
  | 'hex'
  | 'decimal'
  | 'klayr32'
  | 'integer'
  | 'boolean'
  /** Any JSON object (a schema, a free-form record). */
  | 'object'
  | ShapeArray
  | ShapeObject
  | ShapeOptional;
export interface ShapeObject {
  readonly [field: string]: Shape;
}
// classes, so that no field name of an object shape can be mistaken for them
class ShapeArray {
  constructor(readonly items: Shape) {}
}
class ShapeOptional {
  constructor(readonly shape: Shape) {}
}

export const arrayOf = (items: Shape): Shape => new ShapeArray(items);
/** A field Klayr's response schema does not require (it is left out when it has no value). */
export const optional = (shape: Shape): Shape => new ShapeOptional(shape);

const HEX = /^([0-9a-f]{2})*$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const KLAYR32 = /^kly[a-z2-9]{38}$/;

const scalarMismatch = (value: unknown, shape: string): boolean => {
  switch (shape) {
    case 'string':
      return typeof value !== 'string';
    case 'hex':
      return typeof value !== 'string' || !HEX.test(value);
    case 'decimal':
      return typeof value !== 'string' || !DECIMAL.test(value);
    case 'klayr32':
      return typeof value !== 'string' || !KLAYR32.test(value);
    case 'integer':
      return typeof value !== 'number' || !Number.isInteger(value);
    case 'boolean':
      return typeof value !== 'boolean';
    case 'object':
      return typeof value !== 'object' || value === null || Array.isArray(value);
    default:
      throw new Error(`unknown shape ${shape}`);
  }
};

/** Every place where `value` differs from `shape`, as `path: what` lines (empty when it fits). */
export const shapeMismatches = (value: unknown, shape: Shape, path = '.'): string[] => {
  if (typeof shape === 'string')
    return scalarMismatch(value, shape) ? [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not ${shape}`] : [];
  if (shape instanceof ShapeOptional) return value === undefined ? [] : shapeMismatches(value, shape.shape, path);
  if (shape instanceof ShapeArray) {
    if (!Array.isArray(value)) return [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not an array`];
    return value.flatMap((item, i) => shapeMismatches(item, shape.items, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not an object`];
  const record = value as Record<string, unknown>;
  const fields = shape as ShapeObject;
  const at = (name: string) => (path === '.' ? `.${name}` : `${path}.${name}`);
  return [
    ...Object.keys(record)
      .filter((name) => fields[name] === undefined)
      .map((name) => `${at(name)}: not in the shape`),
    ...Object.entries(fields).flatMap(([name, field]) =>
      record[name] === undefined && !(field instanceof ShapeOptional)
        ? [`${at(name)}: missing`]
        : shapeMismatches(record[name], field, at(name)),
    ),
  ];
};

export const assertShape = (value: unknown, shape: Shape, what: string): void =>
  assert.deepEqual(shapeMismatches(value, shape), [], `${what}: ${JSON.stringify(value)?.slice(0, 300)}`);

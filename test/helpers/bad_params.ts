import type { SchemaProperty } from '../../src/lib/codec/index.js';
import { hexBytes, integerRange } from './param_bounds.js';

/**
 * Valid params from a method's params schema, and every single-field mutation of them that the
 * node must refuse: the bad-input test derives both from the registry, so a new method is
 * covered without a line of test code. Lengths and ranges come from param_bounds.ts, not from the
 * schema under test, so a schema that is too loose lets a mutation through.
 */

type Path = readonly (string | number)[];

export interface Mutation {
  /** What was done, for failure reports. */
  readonly label: string;
  readonly params: Record<string, unknown>;
  /** A name the error message must contain: the field at fault. */
  readonly mentions: string;
}

const typesOf = (schema: SchemaProperty): string[] =>
  schema.type === undefined
    ? schema.dataType === 'string'
      ? ['string']
      : []
    : Array.isArray(schema.type)
      ? [...(schema.type as string[])]
      : [schema.type as string];

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;

const integerBounds = (schema: SchemaProperty): { min: number; max: number } => {
  const formatMin = schema.format === 'int32' ? INT32_MIN : schema.format === 'uint32' ? 0 : Number.NEGATIVE_INFINITY;
  const formatMax =
    schema.format === 'int32' ? INT32_MAX : schema.format === 'uint32' ? UINT32_MAX : Number.POSITIVE_INFINITY;
  return {
    min: typeof schema.minimum === 'number' ? schema.minimum : formatMin,
    max: typeof schema.maximum === 'number' ? schema.maximum : formatMax,
  };
};

/**
 * The schemas a value may be checked against: the schema itself, or for an if/then/else on
 * discriminating consts (generator_setKeys' `type`), one merged schema per branch.
 */
export const variants = (schema: SchemaProperty): SchemaProperty[] => {
  if (schema.if === undefined) return [schema];
  const { if: condition, then, else: otherwise, ...base } = schema as Record<string, unknown> & SchemaProperty;
  const baseProps = schema.properties ?? {};
  const conditionProps = (condition as SchemaProperty).properties ?? {};
  const chosen = (matching: boolean): Record<string, SchemaProperty> =>
    Object.fromEntries(
      Object.entries(conditionProps).map(([name, sub]) => {
        const own = baseProps[name] ?? {};
        const others = ((own.enum as unknown[] | undefined) ?? []).filter((v) => v !== sub.const);
        return [name, matching ? { ...own, const: sub.const } : { ...own, enum: others }];
      }),
    );
  const merged = (branch: unknown, matching: boolean): SchemaProperty => ({
    ...base,
    properties: { ...baseProps, ...chosen(matching), ...((branch as SchemaProperty | undefined)?.properties ?? {}) },
  });
  return [merged(then, true), merged(otherwise, false)];
};

/** A valid value of a schema; every optional property is given too, so that it is mutated as well. */
export const sample = (schema: SchemaProperty, address: string): unknown => {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = typesOf(schema)[0];
  const { minLength = 0, maxLength = Number.POSITIVE_INFINITY } = schema;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, sub]) => [name, sample(sub, address)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items ?? {}, address));
    case 'integer':
    case 'number': {
      const { min, max } = integerBounds(schema);
      return Math.min(Math.max(0, min), max);
    }
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'klayr32') return address;
      if (schema.format === 'hex') return 'ab'.repeat(Math.min(Math.max(1, minLength / 2), maxLength / 2));
      if (schema.format === 'uint64' || schema.format === 'int64') return '1';
      return 'a'.repeat(Math.min(Math.max(1, minLength), maxLength));
    default:
      throw new Error(`No sample for schema ${JSON.stringify(schema)}`);
  }
};

const clone = <T>(v: T): T => structuredClone(v);

const replaceAt = (
  root: Record<string, unknown>,
  path: Path,
  value: unknown,
  remove = false,
): Record<string, unknown> => {
  const out = clone(root);
  let at: Record<string | number, unknown> = out;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (remove) delete at[last];
  else at[last] = value;
  return out;
};

/** The wrong values for one field: its type from the schema, its length or range from param_bounds.ts. */
const wrongValues = (method: string, name: string, schema: SchemaProperty, current: unknown): [string, unknown][] => {
  const types = typesOf(schema);
  const out: [string, unknown][] = [['null', null]];
  if (types.includes('string')) out.push(['a number for a string', 12345]);
  else if (types.includes('integer') || types.includes('number')) out.push(['a string for a number', '1']);
  else if (types.includes('boolean')) out.push(['a string for a boolean', 'true']);
  else if (types.includes('array')) out.push(['an object for an array', {}]);
  else if (types.includes('object')) out.push(['an array for an object', []]);
  if (schema.const !== undefined || Array.isArray(schema.enum)) out.push(['a value outside the enum', 'not-an-option']);
  const { minLength, maxLength } = schema;
  const hex = hexBytes(method, name);
  if (schema.format === 'hex' && hex === undefined)
    throw new Error(`${method}: hex field ${name} has no expected length in test/helpers/param_bounds.ts`);
  if (types.includes('string') && typeof current === 'string') {
    if (hex !== undefined) {
      const [min, max] = hex;
      out.push(
        ['odd-length hex', `${current}a`],
        ['non-hex characters', 'zz'.repeat(current.length / 2)],
        ['0x-prefixed hex', `0x${current.slice(2)}`],
      );
      out.push([`hex of ${max + 1} bytes`, 'ab'.repeat(max + 1)]);
      if (max < 500) out.push(['hex of 500 bytes', 'ab'.repeat(500)]);
      if (min > 0) out.push([`hex of ${min - 1} bytes`, 'ab'.repeat(min - 1)]);
    } else if (schema.format === 'klayr32') {
      out.push(
        ['a bad checksum', `${current.slice(0, -1)}${current.endsWith('a') ? 'b' : 'a'}`],
        ['an uppercase address', current.toUpperCase()],
        ['a short address', current.slice(0, 20)],
        ['an empty address', ''],
      );
    } else if (schema.format === 'uint64' || schema.format === 'int64') {
      out.push(
        ['a negative amount', '-1'],
        ['an amount above uint64', '18446744073709551616'],
        ['a fraction', '1.5'],
        ['an empty amount', ''],
      );
    } else {
      if (maxLength !== undefined) out.push(['a string one character too long', 'a'.repeat(maxLength + 1)]);
      if (minLength !== undefined && minLength > 0)
        out.push(['a string one character too short', 'a'.repeat(minLength - 1)]);
    }
  }
  if (types.includes('integer')) {
    const [min, max] = integerRange(method, name);
    out.push(
      ['a fraction', 1.5],
      [`${min - 1}, below the minimum`, min - 1],
      [`${max + 1}, above the maximum`, max + 1],
      ['2^64', 2 ** 64],
    );
    if (min >= 0) out.push(['a negative number', -1]);
  }
  if (types.includes('array') && Array.isArray(current)) {
    if ((schema.minItems ?? 0) > 0) out.push(['an empty array', []]);
    if (schema.maxItems !== undefined && schema.maxItems < 1000)
      out.push(['one item too many', Array.from({ length: schema.maxItems + 1 }, () => current[0])]);
  }
  return out;
};

/** Every mutation of one field (and, for objects and arrays, of the fields inside), each refused by a strict schema. */
const mutateAt = (
  method: string,
  root: Record<string, unknown>,
  schema: SchemaProperty,
  path: Path,
  name: string,
): Mutation[] => {
  let current: unknown = root;
  for (const key of path) current = (current as Record<string | number, unknown>)[key];
  const where = path.length === 0 ? 'params' : path.join('.');
  const out: Mutation[] =
    path.length === 0
      ? []
      : wrongValues(method, name, schema, current).map(([label, value]) => ({
          label: `${where}: ${label}`,
          params: replaceAt(root, path, value),
          mentions: name,
        }));
  if (typesOf(schema).includes('object') && typeof current === 'object' && current !== null) {
    for (const required of (schema.required as string[] | undefined) ?? []) {
      out.push({
        label: `${where}: missing ${required}`,
        params: replaceAt(root, [...path, required], undefined, true),
        mentions: required,
      });
    }
    out.push({
      label: `${where}: an unknown property`,
      params: replaceAt(root, [...path, 'unexpectedField'], 1),
      mentions: 'unexpectedField',
    });
    for (const [prop, sub] of Object.entries(schema.properties ?? {}))
      out.push(...mutateAt(method, root, sub, [...path, prop], prop));
  }
  if (schema.items !== undefined && Array.isArray(current) && current.length > 0)
    out.push(...mutateAt(method, root, schema.items, [...path, 0], name));
  return out;
};

/** Valid params of each variant of a params schema, with every mutation of them. */
export const paramCases = (
  method: string,
  schema: SchemaProperty,
  address: string,
): { valid: Record<string, unknown>; mutations: Mutation[] }[] =>
  variants(schema).map((variant) => {
    const valid = sample(variant, address) as Record<string, unknown>;
    return { valid, mutations: mutateAt(method, valid, variant, [], '') };
  });

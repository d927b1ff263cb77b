import type { ValidationIssue } from './errors.js';
import { CodecError, ValidationError } from './errors.js';
import { numberFormats, stringFormats } from './formats.js';
import type { SchemaProperty } from './types.js';
import { MAX_SINT32, MAX_SINT64, MAX_UINT32, MAX_UINT64, MIN_SINT32, MIN_SINT64 } from './varint.js';

type Check = (value: unknown, path: string, issues: ValidationIssue[]) => void;

/**
 * A compiled schema: `ok` answers whether a value is valid without building paths or issues
 * (the common case, taken first); `collect` lists every problem with its path.
 */
interface Compiled {
  readonly ok: (value: unknown) => boolean;
  readonly collect: Check;
}

/** Keywords that carry no constraint. */
const ANNOTATIONS = new Set(['$id', '$schema', 'title', 'description', 'examples', 'default', 'fieldNumber']);
const KNOWN = new Set([
  ...ANNOTATIONS,
  'type',
  'dataType',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'enum',
  'const',
  'oneOf',
  'if',
  'then',
  'else',
]);

export interface ValidatorOptions {
  /**
   * For requests from outside (RPC params): an object schema that lists `properties` refuses any other property
   * unless it sets `additionalProperties`.
   */
  readonly strict?: boolean;
}

/** How one schema node is compiled: `closed` is false for branches (oneOf, if/then/else), which only add to their parent's properties. */
interface NodeOptions {
  readonly strict: boolean;
  readonly closed: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

const typeChecks: Readonly<Record<string, (v: unknown) => boolean>> = {
  object: isPlainObject,
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

const dataTypeChecks: Readonly<Record<string, (v: unknown) => boolean>> = {
  uint32: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_UINT32,
  sint32: (v) => typeof v === 'number' && Number.isInteger(v) && v >= MIN_SINT32 && v <= MAX_SINT32,
  uint64: (v) => typeof v === 'bigint' && v >= 0n && v <= MAX_UINT64,
  sint64: (v) => typeof v === 'bigint' && v >= MIN_SINT64 && v <= MAX_SINT64,
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  bytes: (v) => v instanceof Uint8Array,
};

const stableKey = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x,
  );

/** Code points in a string, as JSON schema counts its length. */
const codePoints = (s: string): number => {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff || i === 0 || (s.charCodeAt(i - 1) & 0xfc00) !== 0xd800) count += 1;
  }
  return count;
};

const lengthOf = (v: unknown): number | undefined =>
  typeof v === 'string' ? codePoints(v) : v instanceof Uint8Array ? v.length : undefined;

/** A string of at most `max` UTF-16 units has at most `max` code points: no need to count them. */
const withinMaxLength = (v: unknown, max: number): boolean =>
  (typeof v === 'string' && v.length <= max) || (lengthOf(v) ?? max) <= max;

const compileSchema = (schema: SchemaProperty, schemaPath: string, options: NodeOptions): Compiled => {
  const child = { strict: options.strict, closed: options.strict };
  const branch = { strict: options.strict, closed: false };
  if (typeof schema !== 'object' || schema === null)
    throw new CodecError('Invalid schema: must be an object', schemaPath);
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN.has(keyword))
      throw new CodecError(`Invalid schema: unsupported keyword "${keyword}"`, schemaPath || '<root>');
  }
  const predicates: ((v: unknown) => boolean)[] = [];
  const checks: Check[] = [];
  /** A constraint on the value itself, reported at the value's path. */
  const add = (keyword: string, ok: (v: unknown) => boolean, message: (v: unknown) => string): void => {
    predicates.push(ok);
    checks.push((v, p, issues) => {
      if (!ok(v)) issues.push({ dataPath: p, keyword, message: message(v) });
    });
  };
  /** A constraint on parts of the value (properties, items): its own predicate and issue collector. */
  const addNested = (ok: (v: unknown) => boolean, collect: Check): void => {
    predicates.push(ok);
    checks.push(collect);
  };

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    for (const t of types)
      if (!(t in typeChecks)) throw new CodecError(`Invalid schema: unknown type "${t}"`, schemaPath);
    const matchers = types.map((t) => typeChecks[t]);
    add(
      'type',
      matchers.length === 1 ? matchers[0] : (v) => matchers.some((matches) => matches(v)),
      () => `should be of type '${types.join(',')}'`,
    );
  }
  if (schema.dataType !== undefined) {
    const check = dataTypeChecks[schema.dataType];
    if (check === undefined) throw new CodecError(`Invalid schema: unknown dataType "${schema.dataType}"`, schemaPath);
    add('dataType', check, () => `should pass "dataType" keyword validation (${schema.dataType})`);
    if (schema.dataType === 'bytes' && schema.format === 'klayr32') {
      add(
        'dataType',
        (v) => !(v instanceof Uint8Array) || v.length === 20,
        () => 'address length invalid',
      );
    }
  }
  const { minLength, maxLength } = schema;
  if (typeof minLength === 'number') {
    add(
      'minLength',
      (v) => (lengthOf(v) ?? minLength) >= minLength,
      () => `must NOT have fewer than ${minLength} characters`,
    );
  }
  if (typeof maxLength === 'number') {
    add(
      'maxLength',
      (v) => withinMaxLength(v, maxLength),
      () => `must NOT have more than ${maxLength} characters`,
    );
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    add(
      'pattern',
      (v) => typeof v !== 'string' || re.test(v),
      () => `must match pattern "${schema.pattern as string}"`,
    );
  }
  if (typeof schema.format === 'string' && schema.dataType !== 'bytes') {
    const name = schema.format;
    const sf = stringFormats[name];
    const nf = numberFormats[name];
    if (sf === undefined && nf === undefined)
      throw new CodecError(`Invalid schema: unknown format "${name}"`, schemaPath);
    add(
      'format',
      (v) =>
        typeof v === 'string' ? sf === undefined || sf(v) : typeof v === 'number' ? nf === undefined || nf(v) : true,
      () => `must match format "${name}"`,
    );
  }
  const numeric = (v: unknown): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';
  if (typeof schema.minimum === 'number') {
    const min = schema.minimum;
    add(
      'minimum',
      (v) => !numeric(v) || v >= min,
      () => `must be >= ${min}`,
    );
  }
  if (typeof schema.maximum === 'number') {
    const max = schema.maximum;
    add(
      'maximum',
      (v) => !numeric(v) || v <= max,
      () => `must be <= ${max}`,
    );
  }
  if (Array.isArray(schema.enum)) {
    const allowed = new Set(schema.enum.map(stableKey));
    add(
      'enum',
      (v) => allowed.has(stableKey(v)),
      () => `must be equal to one of the allowed values`,
    );
  }
  if (schema.const !== undefined) {
    const expected = stableKey(schema.const);
    add(
      'const',
      (v) => stableKey(v) === expected,
      () => `must be equal to constant`,
    );
  }
  if (Array.isArray(schema.oneOf)) {
    const subs = (schema.oneOf as SchemaProperty[]).map((s, i) => compileSchema(s, `${schemaPath}/oneOf/${i}`, branch));
    add(
      'oneOf',
      (v) => subs.filter((sub) => sub.ok(v)).length === 1,
      () => 'must match exactly one schema in oneOf',
    );
  }
  if (schema.if !== undefined) {
    // the branch's own issues are the reasons: clearer than "must match then"
    const condition = compileSchema(schema.if as SchemaProperty, `${schemaPath}/if`, branch);
    const then =
      schema.then !== undefined
        ? compileSchema(schema.then as SchemaProperty, `${schemaPath}/then`, branch)
        : undefined;
    const otherwise =
      schema.else !== undefined
        ? compileSchema(schema.else as SchemaProperty, `${schemaPath}/else`, branch)
        : undefined;
    const chosen = (v: unknown): Compiled | undefined => (condition.ok(v) ? then : otherwise);
    addNested(
      (v) => chosen(v)?.ok(v) ?? true,
      (v, p, issues) => chosen(v)?.collect(v, p, issues),
    );
  }

  const { properties } = schema;
  if (properties !== undefined) {
    const props = Object.entries(properties).map(([name, sub]) => ({
      name,
      check: compileSchema(sub, `${schemaPath}/properties/${name}`, child),
    }));
    addNested(
      (v) => {
        if (!isPlainObject(v)) return true;
        for (const { name, check } of props) if (v[name] !== undefined && !check.ok(v[name])) return false;
        return true;
      },
      (v, p, issues) => {
        if (!isPlainObject(v)) return;
        for (const { name, check } of props) if (v[name] !== undefined) check.collect(v[name], `${p}.${name}`, issues);
      },
    );
  }
  if (Array.isArray(schema.required)) {
    const required = schema.required as string[];
    addNested(
      (v) => {
        if (!isPlainObject(v)) return true;
        for (const name of required) if (v[name] === undefined) return false;
        return true;
      },
      (v, p, issues) => {
        if (!isPlainObject(v)) return;
        for (const name of required) {
          if (v[name] === undefined)
            issues.push({ dataPath: p, keyword: 'required', message: `must have required property '${name}'` });
        }
      },
    );
  }
  const closedByDefault = options.closed && properties !== undefined && schema.additionalProperties === undefined;
  if (schema.additionalProperties !== undefined || closedByDefault) {
    // properties a branch (oneOf, then, else) adds are known too
    const branches = [...((schema.oneOf as SchemaProperty[] | undefined) ?? []), schema.then, schema.else].map((b) =>
      Object.keys((b as SchemaProperty | undefined)?.properties ?? {}),
    );
    const known = new Set([...Object.keys(properties ?? {}), ...branches.flat()]);
    const extra = closedByDefault ? false : schema.additionalProperties;
    const extraCheck =
      typeof extra === 'object' && extra !== null
        ? compileSchema(extra as SchemaProperty, `${schemaPath}/additionalProperties`, child)
        : undefined;
    addNested(
      (v) =>
        !isPlainObject(v) ||
        Object.keys(v).every(
          (name) => known.has(name) || (extraCheck !== undefined ? extraCheck.ok(v[name]) : extra !== false),
        ),
      (v, p, issues) => {
        if (!isPlainObject(v)) return;
        for (const name of Object.keys(v)) {
          if (known.has(name)) continue;
          if (extraCheck !== undefined) extraCheck.collect(v[name], `${p}.${name}`, issues);
          else if (extra === false)
            issues.push({ dataPath: p, keyword: 'additionalProperties', message: `has extraneous property '${name}'` });
        }
      },
    );
  }
  if (schema.propertyNames !== undefined) {
    const nameCheck = compileSchema(schema.propertyNames as SchemaProperty, `${schemaPath}/propertyNames`, branch);
    addNested(
      (v) => !isPlainObject(v) || Object.keys(v).every(nameCheck.ok),
      (v, p, issues) => {
        if (isPlainObject(v)) for (const name of Object.keys(v)) nameCheck.collect(name, `${p}.${name}`, issues);
      },
    );
  }

  if (schema.items !== undefined) {
    const itemCheck = compileSchema(schema.items, `${schemaPath}/items`, child);
    addNested(
      (v) => !Array.isArray(v) || v.every(itemCheck.ok),
      (v, p, issues) => {
        if (Array.isArray(v)) for (const [i, x] of v.entries()) itemCheck.collect(x, `${p}.${i}`, issues);
      },
    );
  }
  const { minItems, maxItems } = schema;
  if (typeof minItems === 'number') {
    add(
      'minItems',
      (v) => !Array.isArray(v) || v.length >= minItems,
      () => `must NOT have fewer than ${minItems} items`,
    );
  }
  if (typeof maxItems === 'number') {
    add(
      'maxItems',
      (v) => !Array.isArray(v) || v.length <= maxItems,
      () => `must NOT have more than ${maxItems} items`,
    );
  }
  if (schema.uniqueItems === true) {
    add(
      'uniqueItems',
      (v) => !Array.isArray(v) || new Set(v.map(stableKey)).size === v.length,
      () => 'must NOT have duplicate items',
    );
  }

  return {
    ok: (v) => {
      for (const ok of predicates) if (!ok(v)) return false;
      return true;
    },
    collect: (v, p, issues) => {
      for (const check of checks) check(v, p, issues);
    },
  };
};

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

export type Validator = (value: unknown) => readonly ValidationIssue[];

/** Compiles a JSON schema (with Klayr's `dataType` keyword) into a function that lists every problem of a value. */
export const compileValidator = (schema: SchemaProperty, options: ValidatorOptions = {}): Validator => {
  const strict = options.strict === true;
  const { ok, collect } = compileSchema(schema, '', { strict, closed: strict });
  return (value) => {
    if (ok(value)) return NO_ISSUES;
    const issues: ValidationIssue[] = [];
    collect(value, '', issues);
    return issues;
  };
};

export const assertValid = (validator: Validator, value: unknown): void => {
  const issues = validator(value);
  if (issues.length > 0) throw new ValidationError(issues);
};

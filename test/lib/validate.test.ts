import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SchemaProperty } from '../../src/lib/codec/index.js';
import { codec, compileValidator, ValidationError } from '../../src/lib/codec/index.js';
import { klayrFrameworkSchemas, klayrValidator } from '../helpers/klayr.js';
import { Rng, randomObject } from '../helpers/random.js';

const klayrAccepts = (schema: object, value: unknown): boolean => {
  try {
    klayrValidator.validator.validate(schema, value);
    return true;
  } catch {
    return false;
  }
};

/** One random change that may or may not break the schema. */
const mutate = (rng: Rng, value: Record<string, unknown>): void => {
  const keys = Object.keys(value);
  if (keys.length === 0) return;
  const key = rng.pick(keys);
  const v = value[key];
  const replacements: unknown[] = [
    undefined,
    'text',
    -1,
    2 ** 32,
    1.5,
    true,
    null,
    [],
    {},
    Buffer.alloc(0),
    Buffer.alloc(100),
    5n,
    -5n,
    2n ** 64n,
  ];
  if (typeof v === 'object' && v !== null && !Buffer.isBuffer(v) && !Array.isArray(v) && rng.next() < 0.5) {
    mutate(rng, v as Record<string, unknown>);
  } else if (Array.isArray(v) && v.length > 0 && rng.next() < 0.5) {
    v[rng.int(v.length)] = rng.pick(replacements);
  } else {
    value[key] = rng.pick(replacements);
  }
};

describe('schema validation agrees with @klayr/validator', () => {
  const schemas = klayrFrameworkSchemas();

  it('random valid objects pass both; random mutations are judged the same way by both', () => {
    const rng = new Rng(3);
    let rejected = 0;
    for (const schema of schemas) {
      for (let i = 0; i < 30; i++) {
        const value = randomObject(rng, schema);
        assert.equal(compileValidator(schema)(value).length, 0, `${schema.$id} valid object rejected`);
        assert.equal(klayrAccepts(schema, value), true);
        mutate(rng, value);
        const ours = compileValidator(schema)(value).length === 0;
        assert.equal(
          ours,
          klayrAccepts(schema, value),
          `${schema.$id}: disagreement on ${JSON.stringify(value, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))}`,
        );
        if (!ours) rejected++;
      }
    }
    assert.ok(rejected > 1000, `only ${rejected} mutations were invalid`);
  });
});

describe('JSON schema keywords', () => {
  const schema: SchemaProperty = {
    type: 'object',
    required: ['name', 'port', 'modes'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' },
      port: { type: 'integer', minimum: 1, maximum: 65535 },
      modes: {
        type: 'array',
        items: { type: 'string', enum: ['ipc', 'ws', 'http'] },
        uniqueItems: true,
        maxItems: 3,
        minItems: 1,
      },
      host: { type: 'string', format: 'ip' },
      address: { type: 'string', format: 'klayr32' },
      amount: { type: 'string', format: 'uint64' },
      id: { type: 'string', format: 'hex' },
      version: { type: 'string', const: '1' },
      choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    },
  };
  const check = compileValidator(schema);
  const valid = { name: 'abc', port: 7887, modes: ['ipc', 'ws'] };

  it('accepts a valid object', () => {
    assert.deepEqual(check(valid), []);
    assert.deepEqual(
      check({
        ...valid,
        host: '127.0.0.1',
        address: 'klyguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad',
        amount: '18446744073709551615',
        id: 'ab',
        version: '1',
        choice: 3,
      }),
      [],
    );
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    ['required', { name: 'abc', port: 1 }, '', 'required'],
    ['additionalProperties', { ...valid, extra: 1 }, '', 'additionalProperties'],
    ['minLength', { ...valid, name: 'a' }, '.name', 'minLength'],
    ['maxLength', { ...valid, name: 'abcde' }, '.name', 'maxLength'],
    ['pattern', { ...valid, name: 'AB' }, '.name', 'pattern'],
    ['type integer', { ...valid, port: 1.5 }, '.port', 'type'],
    ['minimum', { ...valid, port: 0 }, '.port', 'minimum'],
    ['maximum', { ...valid, port: 70000 }, '.port', 'maximum'],
    ['enum', { ...valid, modes: ['udp'] }, '.modes.0', 'enum'],
    ['uniqueItems', { ...valid, modes: ['ws', 'ws'] }, '.modes', 'uniqueItems'],
    ['minItems', { ...valid, modes: [] }, '.modes', 'minItems'],
    ['format ip', { ...valid, host: '999.1.1.1' }, '.host', 'format'],
    ['format klayr32', { ...valid, address: 'kly123' }, '.address', 'format'],
    ['format uint64', { ...valid, amount: '18446744073709551616' }, '.amount', 'format'],
    ['format hex', { ...valid, id: 'xyz' }, '.id', 'format'],
    ['const', { ...valid, version: '2' }, '.version', 'const'],
    ['oneOf', { ...valid, choice: true }, '.choice', 'oneOf'],
  ];
  for (const [name, value, dataPath, keyword] of cases) {
    it(`${name}: reports the keyword at its JSON path`, () => {
      const issues = check(value);
      assert.ok(
        issues.some((i) => i.dataPath === dataPath && i.keyword === keyword),
        JSON.stringify(issues),
      );
    });
  }

  it('reports every problem at once', () => {
    const issues = check({ name: 1, port: 'x', modes: 'all', extra: true });
    assert.deepEqual(new Set(issues.map((i) => i.dataPath)), new Set(['.name', '.port', '.modes', '']));
  });

  it('unknown keywords, types and formats are refused when compiling, never ignored', () => {
    assert.throws(
      () => compileValidator({ type: 'object', patternProperties: {} }),
      /unsupported keyword "patternProperties"/,
    );
    assert.throws(() => compileValidator({ type: 'float' }), /unknown type/);
    assert.throws(() => compileValidator({ type: 'string', format: 'email' }), /unknown format/);
  });

  it('codec.validate throws a ValidationError listing the issues', () => {
    const s = {
      $id: '/v/1',
      type: 'object',
      required: ['a'],
      properties: { a: { dataType: 'bytes', fieldNumber: 1, maxLength: 2 } },
    } as const;
    assert.throws(
      () => codec.validate(s, { a: Buffer.alloc(3) }),
      (e: unknown) => e instanceof ValidationError && e.issues[0]!.dataPath === '.a',
    );
    codec.validate(s, { a: Buffer.alloc(2) });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SchemaProperty } from '../../src/lib/codec/index.js';
import { compileValidator } from '../../src/lib/codec/index.js';
import { unboundedParams } from '../../src/rpc/param_rules.js';

const messages = (schema: SchemaProperty, value: unknown, strict: boolean): string[] =>
  compileValidator(schema, { strict })(value).map((i) => `${i.dataPath} ${i.message}`);

describe('strict validation (RPC params)', () => {
  const hex = { type: 'object', properties: { h: { type: 'string', format: 'hex' } } } as const;

  it('hex is whole bytes in either case, strict or not, as @klayr/validator checks it (isHexString)', () => {
    for (const strict of [false, true]) {
      for (const h of ['', 'ab', 'AB', 'aB09']) assert.deepEqual(messages(hex, { h }, strict), [], h);
      for (const h of ['a', 'abc', 'zz', '0x', '0xab'])
        assert.deepEqual(messages(hex, { h }, strict), ['.h must match format "hex"'], h);
    }
  });

  it('objects that list properties refuse others when strict, at every depth, unless additionalProperties says otherwise', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } } },
        open: { type: 'object', properties: {}, additionalProperties: true },
      },
    } as const;
    const value = { list: [{ a: 1, b: 2 }], open: { anything: 1 }, extra: true };
    assert.deepEqual(messages(schema, value, false), []);
    assert.deepEqual(messages(schema, value, true), [
      ".list.0 has extraneous property 'b'",
      " has extraneous property 'extra'",
    ]);
    assert.deepEqual(messages({ type: 'object', properties: {} }, {}, true), []);
  });

  it('if/then/else checks the chosen branch, whose properties are known to the parent', () => {
    const schema = {
      type: 'object',
      required: ['kind', 'data'],
      properties: { kind: { type: 'string', enum: ['a', 'b'] }, data: { type: 'object' } },
      if: { properties: { kind: { const: 'a' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword; this object is a schema, never awaited.
      then: { properties: { data: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } } } },
      else: { properties: { data: { type: 'object', required: ['y'], properties: { y: { type: 'string' } } } } },
    } as const;
    assert.deepEqual(messages(schema, { kind: 'a', data: { x: 1 } }, true), []);
    assert.deepEqual(messages(schema, { kind: 'b', data: { y: 'z' } }, true), []);
    assert.deepEqual(messages(schema, { kind: 'a', data: { y: 'z' } }, true), [
      ".data must have required property 'x'",
      ".data has extraneous property 'y'",
    ]);
    assert.deepEqual(messages(schema, { kind: 'b', data: { x: 1 } }, false), [".data must have required property 'y'"]);
  });
});

describe('unboundedParams: every hex field has a maxLength, every integer a maximum', () => {
  it('lists the fields without bounds, at any depth, and accepts bounded ones', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', format: 'hex' },
        b: { type: 'array', items: { type: 'integer', minimum: 0 } },
        c: { type: 'string', format: 'hex', maxLength: 8 },
        d: { type: 'integer', format: 'uint32' },
        e: { type: 'integer', maximum: 10 },
      },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword; this object is a schema, never awaited.
      then: { properties: { f: { type: 'object', properties: { g: { type: 'integer' } } } } },
    } as const;
    assert.deepEqual(unboundedParams(schema), [
      '.a: hex without maxLength',
      '.b.items: integer without maximum',
      '.f.g: integer without maximum',
    ]);
  });
});

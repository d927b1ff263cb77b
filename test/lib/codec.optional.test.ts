import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema, SchemaProperty } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { klayrCodec, klayrFrameworkSchemas } from '../helpers/klayr.js';
import { Rng, randomObject } from '../helpers/random.js';

const SCHEMAS_PER_RUN = 300;

/** The schema with only a random part of every object's properties listed as required. */
const withRandomRequired = (rng: Rng, schema: SchemaProperty, id?: string): SchemaProperty => {
  const properties: Record<string, SchemaProperty> = {};
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (p.type === 'object') properties[name] = withRandomRequired(rng, p);
    else if (p.type === 'array' && p.items?.type === 'object')
      properties[name] = { ...p, items: withRandomRequired(rng, p.items) };
    else properties[name] = p;
  }
  const names = Object.keys(properties);
  return {
    ...schema,
    ...(id !== undefined ? { $id: id } : {}),
    properties,
    required: names.filter(() => rng.next() < 0.5),
  };
};

/**
 * Leaves out some scalar properties the schema does not require, at every depth. @klayr/codec skips
 * any scalar that is undefined but reads a nested object or array unconditionally, so only
 * scalars are left out for the comparison.
 */
const withoutOptionalScalars = (
  rng: Rng,
  schema: SchemaProperty,
  value: Record<string, unknown>,
): Record<string, unknown> => {
  const required = new Set(schema.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    const v = value[name];
    if (p.type === 'object') out[name] = withoutOptionalScalars(rng, p, v as Record<string, unknown>);
    else if (p.type === 'array')
      out[name] =
        p.items?.type === 'object'
          ? (v as Record<string, unknown>[]).map((item) => withoutOptionalScalars(rng, p.items!, item))
          : v;
    else if (required.has(name) || rng.next() < 0.4) out[name] = v;
  }
  return out;
};

describe('codec: properties a schema does not require', () => {
  it(`encodes objects that leave out optional scalars byte-equal to @klayr/codec (${SCHEMAS_PER_RUN} schemas from klayr-framework's, random required lists)`, () => {
    const rng = new Rng(0x0971);
    const sources = klayrFrameworkSchemas();
    let skipped = 0;
    for (let i = 0; i < SCHEMAS_PER_RUN; i++) {
      const schema = withRandomRequired(rng, sources[i % sources.length]!, `/kestrel/test/optional/${i}`) as Schema;
      const full = randomObject(rng, schema);
      const value = withoutOptionalScalars(rng, schema, full);
      const ours = codec.encode(schema, value);
      assert.equal(
        ours.toString('hex'),
        (klayrCodec.codec.encode(schema, value) as Buffer).toString('hex'),
        `${schema.$id} from ${sources[i % sources.length]!.$id}`,
      );
      if (ours.length < codec.encode(schema, full).length) skipped++;
    }
    assert.ok(skipped > SCHEMAS_PER_RUN / 2, `only ${skipped} objects left a property out`);
  });

  const schema = {
    $id: '/kestrel/test/optional/fixed',
    type: 'object',
    required: ['a'],
    properties: {
      a: { dataType: 'uint32', fieldNumber: 1 },
      b: { dataType: 'string', fieldNumber: 2 },
      c: { type: 'object', fieldNumber: 3, required: [], properties: { x: { dataType: 'bytes', fieldNumber: 1 } } },
      d: { type: 'array', fieldNumber: 4, items: { dataType: 'uint64' } },
    },
  } as const satisfies Schema;

  it('skips a left-out optional scalar, nested object or array, so that the bytes equal the encoding without the field', () => {
    assert.equal(codec.encode(schema, { a: 5 }).toString('hex'), '0805');
    assert.equal(codec.encode(schema, { a: 5, b: 'k' }).toString('hex'), '0805' + '12016b');
    assert.equal(codec.encode(schema, { a: 5, c: {} }).toString('hex'), '0805' + '1a00');
    assert.equal(codec.encode(schema, { a: 5, d: [1n] }).toString('hex'), '0805' + '220101');
  });

  it('still refuses a left-out required property, naming it', () => {
    assert.throws(() => codec.encode(schema, { b: 'k' }), /\.a/);
  });

  it('does not skip a present optional property of the wrong type', () => {
    assert.throws(() => codec.encode(schema, { a: 5, b: 7 }), /\.b/);
    assert.throws(() => codec.encode(schema, { a: 5, b: null }), /\.b/);
  });
});

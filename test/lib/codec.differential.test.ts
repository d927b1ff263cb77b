import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codec } from '../../src/lib/codec/index.js';
import { klayrCodec, klayrFrameworkSchemas } from '../helpers/klayr.js';
import { Rng, randomObject } from '../helpers/random.js';

const OBJECTS_TOTAL = 10_000;

describe('codec against @klayr/codec over every klayr-framework schema', () => {
  const schemas = klayrFrameworkSchemas();
  const perSchema = Math.ceil(OBJECTS_TOTAL / schemas.length);

  it('finds the framework schemas (block header, transaction, module stores, events, commands)', () => {
    const ids = new Set(schemas.map((s) => s.$id));
    for (const id of [
      '/block/v2/header/',
      '/block/v2/transaction',
      '/klayr/transferParams',
      '/token/store/supply',
      '/pos/validator',
      '/modules/interoperability/channel',
    ]) {
      assert.ok(ids.has(id), `missing ${id}`);
    }
    assert.ok(schemas.length >= 150, `only ${schemas.length} schemas found`);
  });

  it('encodes strings byte-equal: short ASCII (written byte by byte), non-ASCII at any place, not NFC, 127 to 129 characters', () => {
    const schema = {
      $id: '/test/strings',
      type: 'object',
      required: ['text'],
      properties: { text: { dataType: 'string', fieldNumber: 1 } },
    } as const;
    for (const text of [
      '',
      'token',
      'é',
      'abé',
      'abcde\u00e9',
      'e\u0301',
      '日本語',
      'x'.repeat(127),
      'x'.repeat(128),
      `${'x'.repeat(126)}é`,
      'x'.repeat(129),
      'abc\ud83d\ude00',
    ]) {
      const ours = codec.encode(schema, { text });
      assert.equal(
        ours.toString('hex'),
        klayrCodec.codec.encode(schema, { text }).toString('hex'),
        JSON.stringify(text),
      );
      assert.equal(codec.decode<{ text: string }>(schema, ours).text, text.normalize('NFC'));
    }
  });

  it('encodes every type at its varint and copy boundaries byte-equal, under keys of one to three bytes', () => {
    // the generated encoder writes keys, uint32, uint64, booleans and bytes inline: each at the edges of its paths
    const schema = {
      $id: '/test/boundaries',
      type: 'object',
      required: ['u32', 'u64', 'flag', 'data', 'list', 'flags', 'blobs', 'inner', 'inners', 's64'],
      properties: {
        u32: { dataType: 'uint32', fieldNumber: 1 },
        u64: { dataType: 'uint64', fieldNumber: 16 },
        flag: { dataType: 'boolean', fieldNumber: 2047 },
        data: { dataType: 'bytes', fieldNumber: 2048 },
        list: { type: 'array', fieldNumber: 3, items: { dataType: 'uint64' } },
        flags: { type: 'array', fieldNumber: 18_999, items: { dataType: 'boolean' } },
        blobs: { type: 'array', fieldNumber: 5, items: { dataType: 'bytes' } },
        inner: {
          type: 'object',
          fieldNumber: 300,
          required: ['n'],
          properties: { n: { dataType: 'uint32', fieldNumber: 1 }, b: { dataType: 'bytes', fieldNumber: 2 } },
        },
        inners: {
          type: 'array',
          fieldNumber: 7,
          items: { type: 'object', required: ['n'], properties: { n: { dataType: 'uint32', fieldNumber: 20 } } },
        },
        s64: { dataType: 'sint64', fieldNumber: 8 },
      },
    } as const;
    const u32s = [0, 1, 127, 128, 16_383, 16_384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31, 2 ** 32 - 1];
    const u64s = [
      0n,
      127n,
      128n,
      2n ** 32n - 1n,
      2n ** 32n,
      2n ** 35n,
      2n ** 49n,
      2n ** 56n,
      2n ** 63n,
      2n ** 64n - 1n,
    ];
    const lengths = [0, 1, 20, 32, 33, 127, 128, 300, 20_000];
    for (let i = 0; i < 120; i++) {
      const u32 = u32s[i % u32s.length] ?? 0;
      const u64 = u64s[i % u64s.length] ?? 0n;
      const length = lengths[i % lengths.length] ?? 0;
      const value = {
        u32,
        u64,
        flag: i % 2 === 0,
        data: Buffer.alloc(length, i),
        list: u64s.slice(0, i % (u64s.length + 1)),
        flags: Array.from({ length: i % 4 }, (_, j) => j % 2 === 1),
        blobs: lengths.slice(0, i % 5).map((n) => Buffer.alloc(n, n)),
        inner: i % 3 === 0 ? { n: u32 } : { n: u32, b: Buffer.alloc(length, 1) },
        inners: u32s.slice(0, i % 6).map((n) => ({ n })),
        s64: -u64 / 2n,
      };
      const ours = codec.encode(schema, value);
      assert.equal(ours.toString('hex'), klayrCodec.codec.encode(schema, value).toString('hex'), `value ${i}`);
      // a value leaving the optional property out encodes as Klayr's does, and decodes (strictly) to an error
      if (value.inner.b !== undefined) assert.deepStrictEqual(codec.decode(schema, ours), value, `value ${i}`);
    }
  });

  it(`encodes ${OBJECTS_TOTAL}+ random objects byte-equal and round-trips them both ways`, () => {
    const rng = new Rng(0x5eed);
    let count = 0;
    for (const schema of schemas) {
      for (let i = 0; i < perSchema; i++) {
        const value = randomObject(rng, schema);
        const ours = codec.encode(schema, value);
        const theirs: Buffer = klayrCodec.codec.encode(schema, value);
        assert.equal(ours.toString('hex'), theirs.toString('hex'), `${schema.$id} encode`);
        assert.deepStrictEqual(codec.decode(schema, ours), value, `${schema.$id} decode`);
        assert.deepStrictEqual(klayrCodec.codec.decode(schema, ours), value, `${schema.$id} klayr decode`);
        const json = codec.toJSON(schema, value);
        assert.deepStrictEqual(json, klayrCodec.codec.toJSON(schema, value), `${schema.$id} toJSON`);
        assert.deepStrictEqual(codec.fromJSON(schema, json), value, `${schema.$id} fromJSON`);
        count++;
      }
    }
    assert.ok(count >= OBJECTS_TOTAL);
  });
});

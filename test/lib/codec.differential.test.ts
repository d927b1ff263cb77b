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

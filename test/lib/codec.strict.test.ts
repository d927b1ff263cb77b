import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../src/lib/codec/index.js';
import { CodecError, codec } from '../../src/lib/codec/index.js';

const schema = {
  $id: '/test/strict',
  type: 'object',
  required: ['a', 'b', 'c', 'list', 'nested'],
  properties: {
    a: { dataType: 'uint32', fieldNumber: 1 },
    b: { dataType: 'bytes', fieldNumber: 2 },
    c: { dataType: 'string', fieldNumber: 3 },
    list: { type: 'array', items: { dataType: 'uint64' }, fieldNumber: 4 },
    nested: {
      type: 'object',
      fieldNumber: 5,
      properties: { flag: { dataType: 'boolean', fieldNumber: 1 }, n: { dataType: 'sint64', fieldNumber: 2 } },
    },
  },
} as const satisfies Schema;

const valid = { a: 300, b: Buffer.from('abcd', 'hex'), c: 'hi', list: [1n, 2n], nested: { flag: true, n: -3n } };
const bytes = codec.encode(schema, valid);

const rejects = (input: Buffer, pattern: RegExp): void => {
  assert.throws(
    () => codec.decode(schema, input),
    (e: unknown) => e instanceof CodecError && pattern.test((e as Error).message),
  );
};

describe('codec decoding is strict', () => {
  it('decodes the canonical encoding', () => {
    assert.deepStrictEqual(codec.decode(schema, bytes), valid);
  });

  it('truncated input at every length raises CodecError', () => {
    for (let n = 0; n < bytes.length; n++) {
      assert.throws(() => codec.decode(schema, bytes.subarray(0, n)), CodecError, `prefix of ${n} bytes`);
    }
  });

  it('trailing bytes raise CodecError', () => {
    rejects(Buffer.concat([bytes, Buffer.from([0x08, 0x01])]), /Unexpected bytes/);
    rejects(Buffer.concat([bytes, Buffer.from([0x00])]), /Unexpected bytes/);
  });

  it('a wrong wire type raises CodecError', () => {
    const wrong = Buffer.from(bytes);
    wrong[0] = 0x0a; // field 1 with wire type 2
    rejects(wrong, /Expected field 1 with wire type 0/);
  });

  it('out-of-order fields raise CodecError', () => {
    const s = {
      $id: '/t/order',
      type: 'object',
      properties: { x: { dataType: 'uint32', fieldNumber: 1 }, y: { dataType: 'uint32', fieldNumber: 2 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(s, Buffer.from([0x10, 0x01, 0x08, 0x01])), /Expected field 1/);
  });

  it('a duplicated scalar field raises CodecError', () => {
    const s = {
      $id: '/t/dup',
      type: 'object',
      properties: { x: { dataType: 'uint32', fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(s, Buffer.from([0x08, 0x01, 0x08, 0x01])), /Unexpected bytes/);
  });

  it('a duplicated packed array raises CodecError', () => {
    const s = {
      $id: '/t/duparr',
      type: 'object',
      properties: { x: { type: 'array', items: { dataType: 'uint32' }, fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.deepStrictEqual(codec.decode(s, Buffer.from([0x0a, 0x01, 0x05])), { x: [5] });
    assert.throws(() => codec.decode(s, Buffer.from([0x0a, 0x01, 0x05, 0x0a, 0x01, 0x06])), /Unexpected bytes/);
    assert.throws(() => codec.decode(s, Buffer.from([0x0a, 0x00])), /Empty packed array/);
  });

  it('non-minimal varints raise CodecError', () => {
    const s = {
      $id: '/t/varint',
      type: 'object',
      properties: { x: { dataType: 'uint32', fieldNumber: 1 }, y: { dataType: 'uint64', fieldNumber: 2 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(s, Buffer.from([0x08, 0x80, 0x00, 0x10, 0x01])), /Non-minimal/);
    assert.throws(
      () => codec.decode(s, Buffer.from([0x08, 0x01, 0x10, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00])),
      /Non-minimal/,
    );
    // a key written non-minimally is not the expected key
    assert.throws(() => codec.decode(s, Buffer.from([0x88, 0x00, 0x01, 0x10, 0x01])), /Expected field 1/);
  });

  it('varints out of range raise CodecError', () => {
    const s = {
      $id: '/t/range',
      type: 'object',
      properties: { x: { dataType: 'uint32', fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(s, Buffer.from([0x08, 0xff, 0xff, 0xff, 0xff, 0x1f])), /out of range/);
    const s64 = {
      $id: '/t/range64',
      type: 'object',
      properties: { x: { dataType: 'uint64', fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.throws(
      () => codec.decode(s64, Buffer.from([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02])),
      /out of range/,
    );
    assert.deepStrictEqual(
      codec.decode(s64, Buffer.from([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])),
      { x: 2n ** 64n - 1n },
    );
  });

  it('lengths running past their container raise CodecError', () => {
    const s = {
      $id: '/t/len',
      type: 'object',
      properties: { x: { dataType: 'bytes', fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(s, Buffer.from([0x0a, 0x05, 0x01, 0x02])), /runs past the end/);
  });

  it('invalid booleans, invalid UTF-8 and non-NFC strings raise CodecError', () => {
    const b = {
      $id: '/t/bool',
      type: 'object',
      properties: { x: { dataType: 'boolean', fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(b, Buffer.from([0x08, 0x02])), /Invalid boolean/);
    const s = {
      $id: '/t/str',
      type: 'object',
      properties: { x: { dataType: 'string', fieldNumber: 1 } },
    } as const satisfies Schema;
    assert.throws(() => codec.decode(s, Buffer.from([0x0a, 0x02, 0xc3, 0x28])), /Invalid UTF-8/);
    const decomposed = Buffer.from('e\u0301', 'utf8');
    assert.throws(() => codec.decode(s, Buffer.concat([Buffer.from([0x0a, decomposed.length]), decomposed])), /NFC/);
  });

  it('missing required fields raise CodecError naming the field', () => {
    assert.throws(() => codec.decode(schema, Buffer.from([0x08, 0x01])), /Missing field 2/);
  });

  it('non-buffer input is refused', () => {
    assert.throws(() => codec.decode(schema, 'abcd' as unknown as Buffer), /Buffer or Uint8Array/);
  });
});

describe('codec encoding refuses values that do not fit the schema', () => {
  const cases: [string, unknown, RegExp][] = [
    ['missing scalar', { ...valid, a: undefined }, /Expected uint32.*\.a/],
    ['uint32 overflow', { ...valid, a: 2 ** 32 }, /uint32/],
    ['negative uint32', { ...valid, a: -1 }, /uint32/],
    ['fractional uint32', { ...valid, a: 1.5 }, /uint32/],
    ['number for uint64', { ...valid, list: [1] }, /uint64/],
    ['uint64 overflow', { ...valid, list: [2n ** 64n] }, /uint64/],
    ['string for bytes', { ...valid, b: 'abcd' }, /bytes/],
    ['number for string', { ...valid, c: 5 }, /string/],
    ['non-array', { ...valid, list: 5n }, /array/],
    ['missing nested object', { ...valid, nested: undefined }, /object/],
    ['sint64 underflow', { ...valid, nested: { flag: true, n: -(2n ** 63n) - 1n } }, /sint64/],
    ['non-boolean', { ...valid, nested: { flag: 1, n: 0n } }, /boolean/],
  ];
  for (const [name, value, pattern] of cases) {
    it(`${name} raises CodecError`, () => {
      assert.throws(
        () => codec.encode(schema, value as typeof valid),
        (e: unknown) => e instanceof CodecError && pattern.test((e as Error).message),
      );
    });
  }

  it('a failed encode leaves the next encode unaffected', () => {
    assert.throws(() => codec.encode(schema, { ...valid, a: -1 }));
    assert.deepStrictEqual(codec.encode(schema, valid), bytes);
  });

  it('long bodies get multi-byte length prefixes', () => {
    for (const n of [127, 128, 16383, 16384, 70000]) {
      const v = { ...valid, b: Buffer.alloc(n, 7), c: 'x'.repeat(n), nested: { flag: false, n: 0n } };
      assert.deepStrictEqual(codec.decode(schema, codec.encode(schema, v)), v);
    }
  });
});

describe('codec schemas are checked when compiled', () => {
  const bad: [string, unknown, RegExp][] = [
    ['missing fieldNumber', { $id: '/b/1', type: 'object', properties: { x: { dataType: 'uint32' } } }, /fieldNumber/],
    [
      'duplicate fieldNumber',
      {
        $id: '/b/2',
        type: 'object',
        properties: { x: { dataType: 'uint32', fieldNumber: 1 }, y: { dataType: 'uint32', fieldNumber: 1 } },
      },
      /duplicate/,
    ],
    [
      'unknown dataType',
      { $id: '/b/3', type: 'object', properties: { x: { dataType: 'float', fieldNumber: 1 } } },
      /dataType/,
    ],
    [
      'array without items',
      { $id: '/b/4', type: 'object', properties: { x: { type: 'array', fieldNumber: 1 } } },
      /items/,
    ],
    ['non-object root', { $id: '/b/5', type: 'array' }, /root/],
  ];
  for (const [name, s, pattern] of bad) {
    it(`${name} is refused`, () => {
      assert.throws(
        () => codec.encode(s as Schema, {}),
        (e: unknown) => e instanceof CodecError && pattern.test((e as Error).message),
      );
    });
  }
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, RecentDecodes } from '../../src/lib/codec/index.js';

const schema = {
  $id: '/test/recent',
  type: 'object',
  required: ['n', 'key', 'items'],
  properties: {
    n: { dataType: 'uint32', fieldNumber: 1 },
    key: { dataType: 'bytes', fieldNumber: 2 },
    items: {
      type: 'array',
      fieldNumber: 3,
      items: { type: 'object', required: ['w'], properties: { w: { dataType: 'uint64', fieldNumber: 1 } } },
    },
  },
} as const;
type Value = { n: number; key: Buffer; items: { w: bigint }[] };
const codec = compile<Value>(schema);
const encoded = (n: number): Buffer => codec.encode({ n, key: Buffer.alloc(4, n), items: [{ w: BigInt(n) }] });

describe('decodes of recent encodings', () => {
  it('decode equal bytes once, whatever buffer holds them, and keep the last `capacity` distinct ones', () => {
    let decodes = 0;
    const counting = {
      decode: (bytes: Uint8Array) => {
        decodes++;
        return codec.decode(bytes);
      },
    };
    const recent = new RecentDecodes<Value>(counting as typeof codec, 2);
    const first = recent.decode(encoded(1));
    assert.equal(recent.decode(Buffer.from(encoded(1))), first, 'the same value for equal bytes');
    recent.decode(encoded(2));
    recent.decode(encoded(1));
    assert.equal(decodes, 2);
    recent.decode(encoded(3));
    recent.decode(encoded(1));
    assert.equal(decodes, 3, 'the most recently used stays');
    recent.decode(encoded(2));
    assert.equal(decodes, 4, 'the least recently used went');
  });

  it('give values frozen all through, their bytes independent of the buffer they were read from', () => {
    const recent = new RecentDecodes<Value>(codec, 2);
    const bytes = encoded(7);
    const value = recent.decode(bytes);
    assert.deepEqual(value, { n: 7, key: Buffer.alloc(4, 7), items: [{ w: 7n }] });
    assert.throws(() => {
      (value as { n: number }).n = 8;
    }, TypeError);
    assert.throws(() => value.items.push({ w: 1n }), TypeError);
    assert.throws(() => {
      (value.items[0] as { w: bigint }).w = 1n;
    }, TypeError);
    bytes.fill(0);
    assert.deepEqual(value.key, Buffer.alloc(4, 7), 'a reused read buffer changes nothing decoded');
    assert.equal(recent.decode(encoded(7)), value);
  });
});

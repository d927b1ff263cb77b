import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../src/lib/codec/index.js';
import { compile, LastWritten } from '../../src/lib/codec/index.js';

const schema = {
  $id: '/test/lastWritten',
  type: 'object',
  required: ['items', 'count'],
  properties: {
    items: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'amount', 'name'],
        properties: {
          address: { dataType: 'bytes', fieldNumber: 1 },
          amount: { dataType: 'uint64', fieldNumber: 2 },
          name: { dataType: 'string', fieldNumber: 3 },
        },
      },
    },
    count: { dataType: 'uint32', fieldNumber: 2 },
  },
} as const satisfies Schema;

interface Value {
  items: { address: Buffer; amount: bigint; name: string }[];
  count: number;
}

const codec = compile<Value>(schema);
const value = (n: number): Value => ({
  items: Array.from({ length: n }, (_, i) => ({ address: Buffer.alloc(20, i), amount: BigInt(i * 7), name: `v${i}` })),
  count: n,
});

describe('LastWritten (lib/codec/last_written.ts)', () => {
  it('the bytes last written read back as their decode would give them; other bytes are decoded', () => {
    const memo = new LastWritten<Value>(codec);
    const bytes = memo.encode(value(5));
    assert.deepEqual(bytes, codec.encode(value(5)));
    assert.deepEqual(memo.decode(Buffer.from(bytes)), codec.decode(bytes));
    assert.deepEqual(memo.copyOf(Buffer.from(bytes)), codec.decode(bytes));
    const other = codec.encode(value(3));
    assert.deepEqual(memo.decode(other), value(3));
    assert.equal(memo.copyOf(other), undefined);
  });

  it('changes to the written value or to a copy read never reach the next read', () => {
    const memo = new LastWritten<Value>(codec);
    const written = value(4);
    const bytes = memo.encode(written);
    written.count = 0;
    written.items[0].amount = 1n;
    written.items.pop();
    const copy = memo.decode(bytes);
    assert.deepEqual(copy, value(4));
    copy.items[1].name = 'changed';
    copy.items.push(value(1).items[0]);
    assert.deepEqual(memo.decode(bytes), value(4));
    const other = memo.copyOf(bytes);
    assert.ok(other !== undefined && other !== copy && other.items[0] !== copy.items[0]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, LastWritten } from '../../src/lib/codec/index.js';
import type { ValidatorReveal } from '../../src/modules/random/stores.js';
import { seedRevealSchema } from '../../src/modules/random/stores.js';

interface Value {
  validatorReveals: ValidatorReveal[];
}

const codec = compile<Value>(seedRevealSchema);
const copy = ({ validatorReveals }: Value): Value => ({
  validatorReveals: validatorReveals.map((reveal) => ({ ...reveal })),
});
const value = (n: number): Value => ({
  validatorReveals: Array.from({ length: n }, (_, i) => ({
    generatorAddress: Buffer.alloc(20, i),
    seedReveal: Buffer.alloc(16, i + 1),
    height: i * 7,
    valid: i % 2 === 0,
  })),
});

describe('LastWritten (lib/codec/last_written.ts)', () => {
  it('the bytes last written read back as their decode would give them; other bytes are decoded', () => {
    const memo = new LastWritten<Value>(codec, copy);
    const bytes = memo.encode(value(5));
    assert.deepEqual(bytes, codec.encode(value(5)));
    assert.deepEqual(memo.decode(Buffer.from(bytes)), codec.decode(bytes));
    assert.deepEqual(memo.copyOf(Buffer.from(bytes)), codec.decode(bytes));
    const other = codec.encode(value(3));
    assert.deepEqual(memo.decode(other), value(3));
    assert.equal(memo.copyOf(other), undefined);
  });

  it('changes to the written value or to a copy read never reach the next read', () => {
    const memo = new LastWritten<Value>(codec, copy);
    const written = value(4);
    const bytes = memo.encode(written);
    written.validatorReveals[0].height = 1;
    written.validatorReveals.pop();
    const read = memo.decode(bytes);
    assert.deepEqual(read, value(4));
    read.validatorReveals[1].valid = !read.validatorReveals[1].valid;
    read.validatorReveals.push(value(1).validatorReveals[0]);
    assert.deepEqual(memo.decode(bytes), value(4));
    const again = memo.copyOf(bytes);
    assert.ok(again !== undefined && again !== read && again.validatorReveals[0] !== read.validatorReveals[0]);
  });

  it('readers that only read share one copy of the last write; a writer still decodes its own, and a new write is read anew', () => {
    const memo = new LastWritten<Value>(codec, copy);
    const written = value(3);
    const bytes = memo.encode(written);
    const shared = memo.sharedOf(Buffer.from(bytes));
    assert.deepEqual(shared, value(3));
    assert.equal(memo.sharedOf(bytes), shared, 'one value for every reader');
    written.validatorReveals[0]!.height = 99;
    const own = memo.decode(bytes);
    own.validatorReveals[1]!.height = 98;
    assert.deepEqual(memo.sharedOf(bytes), value(3), "neither the writer's value nor a decoded copy is the shared one");
    assert.equal(memo.sharedOf(codec.encode(value(2))), undefined);
    const next = memo.encode(own);
    assert.notEqual(memo.sharedOf(next), shared);
    assert.equal(memo.sharedOf(next)?.validatorReveals[1]?.height, 98);
    assert.equal(memo.sharedOf(bytes), undefined, 'the bytes written before are no longer the last');
  });
});

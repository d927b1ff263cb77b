import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CodecError, codec } from '../../src/lib/codec/index.js';
import { klayrFrameworkSchemas } from '../helpers/klayr.js';
import { Rng, randomObject } from '../helpers/random.js';

/** Decoding either fails with a CodecError or yields a value whose encoding is exactly the input. */
const decodeIsCanonical = (schema: Parameters<typeof codec.decode>[0], input: Buffer): 'ok' | 'rejected' => {
  let value: Record<string, unknown>;
  try {
    value = codec.decode(schema, input);
  } catch (e) {
    assert.ok(e instanceof CodecError, `non-CodecError ${(e as Error).stack}`);
    return 'rejected';
  }
  assert.equal(
    codec.encode(schema, value).toString('hex'),
    input.toString('hex'),
    `${schema.$id}: decoded value re-encodes differently`,
  );
  return 'ok';
};

describe('codec fuzz', () => {
  const schemas = klayrFrameworkSchemas();

  it('random byte strings never crash the decoder and never decode non-canonically', () => {
    const rng = new Rng(7);
    for (let i = 0; i < 20_000; i++) {
      decodeIsCanonical(rng.pick(schemas), rng.bytes(rng.int(64)));
    }
  });

  it('mutated valid encodings never crash the decoder and never decode non-canonically', () => {
    const rng = new Rng(11);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const schema = rng.pick(schemas);
      const input = Buffer.from(codec.encode(schema, randomObject(rng, schema)));
      const mutations = 1 + rng.int(3);
      let mutated: Buffer = input;
      for (let m = 0; m < mutations; m++) {
        const op = rng.int(4);
        if (mutated.length === 0) break;
        const at = rng.int(mutated.length);
        if (op === 0) mutated[at] = rng.int(256);
        else if (op === 1) mutated = Buffer.concat([mutated.subarray(0, at), mutated.subarray(at + 1)]);
        else if (op === 2)
          mutated = Buffer.concat([mutated.subarray(0, at), rng.bytes(1 + rng.int(3)), mutated.subarray(at)]);
        else mutated = mutated.subarray(0, at);
      }
      if (decodeIsCanonical(schema, mutated) === 'ok') accepted++;
    }
    assert.ok(accepted > 0, 'some mutations (e.g. in byte contents) should still decode');
  });
});

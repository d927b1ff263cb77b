import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BlockEvent } from '../../src/lib/chain/events.js';
import { computeEventRoot, encodeEvent, eventKeyPairs, eventToJSON } from '../../src/lib/chain/events.js';
import { EMPTY_HASH, smtBranchHash, smtLeafHash, smtRootOf } from '../../src/lib/tree/index.js';
import { klayrChain } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const randomEvent = (rng: Rng, index: number): BlockEvent => ({
  module: rng.pick(['token', 'pos', 'auth']),
  name: rng.pick(['transfer', 'commandExecutionResult', 'lock']),
  data: rng.bytes(rng.int(80)),
  topics: Array.from({ length: 1 + rng.int(4) }, () => rng.bytes(rng.pick([1, 20, 32]))),
  height: rng.int(100000),
  index,
});

describe('events', () => {
  it('encodings, JSON and event-tree key pairs equal @klayr/chain Event', () => {
    const rng = new Rng(6);
    for (let i = 0; i < 500; i++) {
      const event = randomEvent(rng, rng.int(2 ** 30));
      const theirs = new klayrChain.Event(event);
      assert.equal(encodeEvent(event).toString('hex'), theirs.getBytes().toString('hex'));
      assert.deepEqual(eventToJSON(event), theirs.toJSON());
      const ours = eventKeyPairs(event).map((p) => [p.key.toString('hex'), p.value.toString('hex')]);
      const klayr = (theirs.keyPair() as { key: Buffer; value: Buffer }[]).map((p) => [
        p.key.toString('hex'),
        p.value.toString('hex'),
      ]);
      assert.deepEqual(ours, klayr);
    }
  });

  it('the event root of no events is the empty hash, of one single-topic event its leaf, of two a branch in key order', () => {
    assert.deepEqual(computeEventRoot([]), EMPTY_HASH);
    const rng = new Rng(7);
    const one = { ...randomEvent(rng, 0), topics: [Buffer.from('a')] };
    const [p] = eventKeyPairs(one);
    assert.deepEqual(computeEventRoot([one]), smtLeafHash(p!.key, p!.value));
    // a second event whose key differs from the first in the first bit sits on the other side of the root
    const firstBit = (e: BlockEvent): number => eventKeyPairs(e)[0]!.key[0]! >> 7;
    let two = { ...randomEvent(rng, 1), topics: [Buffer.from('b')] };
    for (let n = 0; firstBit(two) === firstBit(one); n++) two = { ...two, topics: [Buffer.from(`b${n}`)] };
    const pairs = [...eventKeyPairs(one), ...eventKeyPairs(two)].sort((x, y) => Buffer.compare(x.key, y.key));
    assert.deepEqual(
      computeEventRoot([one, two]),
      smtBranchHash(smtLeafHash(pairs[0]!.key, pairs[0]!.value), smtLeafHash(pairs[1]!.key, pairs[1]!.value)),
    );
    assert.throws(
      () => eventKeyPairs({ ...one, topics: Array.from({ length: 5 }, () => Buffer.alloc(1)) }),
      /at most 4 topics/,
    );
  });

  it("the event root equals the tree of every event's key pairs: shared and repeated topics, indexes in any order", () => {
    const rng = new Rng(8);
    for (let round = 0; round < 40; round++) {
      const pool = Array.from({ length: 1 + rng.int(12) }, () => rng.bytes(rng.pick([1, 20, 32, 33])));
      const events = Array.from({ length: 1 + rng.int(120) }, (_, index) => ({
        ...randomEvent(rng, index),
        topics: Array.from({ length: 1 + rng.int(4) }, () => rng.pick(pool)),
      }));
      // out of index order in some rounds (a block's never are, the function must not depend on it)
      if (round % 3 === 0) events.reverse();
      const expected = smtRootOf(events.flatMap(eventKeyPairs));
      assert.deepEqual(computeEventRoot(events), expected, `round ${round}`);
    }
    const event = randomEvent(rng, 3);
    assert.throws(() => computeEventRoot([event, { ...event }]), /duplicate key/i);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packEventRootInput, unpackEventRootInput } from '../../src/lib/chain/event_root_input.js';
import { Rng } from '../helpers/random.js';

const randomInput = (rng: Rng) => {
  const events = Array.from({ length: 1 + rng.int(40) }, (_, i) => ({
    index: rng.pick([i, 2 ** 30 - 1 - i]),
    topics: Array.from({ length: rng.int(5) }, () => rng.bytes(rng.pick([0, 1, 20, 32, 300]))),
  }));
  return { events, encodings: events.map(() => rng.bytes(rng.int(200))) };
};

describe('event root input packed for another thread', () => {
  it('unpacks to the same indexes, topics and encodings, in order (no events: an empty buffer)', () => {
    const rng = new Rng(21);
    for (let round = 0; round < 50; round++) {
      const { events, encodings } = randomInput(rng);
      const unpacked = unpackEventRootInput(packEventRootInput(events, encodings));
      assert.deepEqual(unpacked.events, events);
      assert.deepEqual(unpacked.encodings, encodings);
    }
    assert.equal(packEventRootInput([], []).length, 0);
    assert.deepEqual(unpackEventRootInput(Buffer.alloc(0)), { events: [], encodings: [] });
  });

  it('refuses events without one encoding each, and an event of more than 4 topics', () => {
    assert.throws(() => packEventRootInput([{ index: 0, topics: [] }], []), /One encoding per event/);
    assert.throws(
      () =>
        packEventRootInput([{ index: 0, topics: Array.from({ length: 5 }, () => Buffer.alloc(1)) }], [Buffer.alloc(1)]),
      /at most 4 topics/,
    );
  });

  it('refuses every truncation of a packed input, and a topic count above 4, with an error naming what is missing', () => {
    const rng = new Rng(22);
    const { events, encodings } = randomInput(rng);
    const packed = packEventRootInput(events, encodings);
    const ends = new Set<number>();
    for (let n = 0, at = 0; n < events.length; n++) {
      at += 5 + events[n]!.topics.reduce((sum, t) => sum + 4 + t.length, 0) + 4 + encodings[n]!.length;
      ends.add(at);
    }
    for (let cut = 1; cut < packed.length; cut++) {
      if (ends.has(cut)) continue;
      assert.throws(() => unpackEventRootInput(packed.subarray(0, cut)), /^Error: Packed events: truncated /);
    }
    const five = Buffer.concat([Buffer.alloc(4), Buffer.from([5])]);
    assert.throws(() => unpackEventRootInput(five), /5 topics in one event/);
  });
});

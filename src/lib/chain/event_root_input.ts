import type { EventKeySource } from './events.js';
import { EVENT_MAX_TOPICS_PER_EVENT } from './events.js';

/** The input of an event root packed for another thread: what eventRootOf reads of each event, and its encoding. */
export interface EventRootInput {
  events: EventKeySource[];
  encodings: Buffer[];
}

/**
 * Events packed in one buffer, to hand another thread in one transfer: per event its index (uint32 BE),
 * its number of topics (one byte), each topic's length (uint32 BE) and bytes, its encoding's length
 * (uint32 BE) and bytes.
 */
export const packEventRootInput = (events: readonly EventKeySource[], encodings: readonly Buffer[]): Buffer => {
  if (encodings.length !== events.length) throw new Error('One encoding per event is needed');
  let size = 0;
  for (let e = 0; e < events.length; e++) {
    size += 9 + encodings[e].length;
    for (const topic of events[e].topics) size += 4 + topic.length;
  }
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (let e = 0; e < events.length; e++) {
    const { index, topics } = events[e];
    if (topics.length > EVENT_MAX_TOPICS_PER_EVENT)
      throw new Error(`An event has at most ${EVENT_MAX_TOPICS_PER_EVENT} topics`);
    at = out.writeUInt32BE(index, at);
    at = out.writeUInt8(topics.length, at);
    for (const topic of topics) {
      at = out.writeUInt32BE(topic.length, at);
      at += topic.copy(out, at);
    }
    at = out.writeUInt32BE(encodings[e].length, at);
    at += encodings[e].copy(out, at);
  }
  return out;
};

/** packEventRootInput's events and encodings, in order; topics and encodings are views of `packed`. */
export const unpackEventRootInput = (packed: Buffer): EventRootInput => {
  const events: EventKeySource[] = [];
  const encodings: Buffer[] = [];
  let at = 0;
  const take = (length: number, what: string): Buffer => {
    if (at + length > packed.length) throw new Error(`Packed events: truncated ${what}`);
    const bytes = packed.subarray(at, at + length);
    at += length;
    return bytes;
  };
  const uint32 = (what: string): number => take(4, what).readUInt32BE(0);
  while (at < packed.length) {
    const index = uint32('index');
    const count = take(1, 'topic count')[0];
    if (count > EVENT_MAX_TOPICS_PER_EVENT) throw new Error(`Packed events: ${count} topics in one event`);
    const topics: Buffer[] = [];
    for (let t = 0; t < count; t++) topics.push(take(uint32('topic length'), 'topic'));
    events.push({ index, topics });
    encodings.push(take(uint32('encoding length'), 'encoding'));
  }
  return { events, encodings };
};

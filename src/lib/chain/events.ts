import type { CompiledSchema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { sha256 } from '../crypto/hash.js';
import { sha256All } from '../crypto/sha256_x4.js';
import type { SMTProof } from '../tree/index.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree, smtRootOf } from '../tree/index.js';
import { eventSchema } from './schemas.js';

export interface BlockEvent {
  module: string;
  name: string;
  data: Buffer;
  topics: Buffer[];
  height: number;
  index: number;
}

export const EVENT_TOPIC_HASH_LENGTH_BYTES = 8;
export const EVENT_TOPIC_INDEX_LENGTH_BITS = 2;
export const EVENT_INDEX_LENGTH_BITS = 30;
/** Event tree keys: 8 bytes of the topic hash || 4 bytes of (event index << 2 | topic index). */
export const EVENT_KEY_LENGTH =
  EVENT_TOPIC_HASH_LENGTH_BYTES + (EVENT_INDEX_LENGTH_BITS + EVENT_TOPIC_INDEX_LENGTH_BITS) / 8;
export const EVENT_MAX_TOPICS_PER_EVENT = 2 ** EVENT_TOPIC_INDEX_LENGTH_BITS;

const eventCodec: CompiledSchema<BlockEvent> = compile<BlockEvent>(eventSchema);

export const encodeEvent = (event: BlockEvent): Buffer => eventCodec.encode(event);
export const decodeEvent = (bytes: Uint8Array): BlockEvent => eventCodec.decode(bytes);
export const eventToJSON = (event: BlockEvent) => eventCodec.toJSON(event);

const checkEvent = (event: BlockEvent): void => {
  if (event.topics.length > EVENT_MAX_TOPICS_PER_EVENT)
    throw new Error(`An event has at most ${EVENT_MAX_TOPICS_PER_EVENT} topics`);
  if (!Number.isInteger(event.index) || event.index < 0 || event.index >= 2 ** EVENT_INDEX_LENGTH_BITS)
    throw new Error('Event index out of range');
};

/** The event-tree key of an event's topic: 8 bytes of the topic's hash || (event index << 2 | topic index). */
const eventKey = (event: BlockEvent, topicIndex: number, hashOfTopic: Buffer): Buffer => {
  const key = Buffer.allocUnsafe(EVENT_KEY_LENGTH);
  hashOfTopic.copy(key, 0, 0, EVENT_TOPIC_HASH_LENGTH_BYTES);
  key.writeUInt32BE(event.index * 2 ** EVENT_TOPIC_INDEX_LENGTH_BITS + topicIndex, EVENT_TOPIC_HASH_LENGTH_BYTES);
  return key;
};

/** One event-tree entry per topic; the value is the hash of the encoded event (@klayr/chain Event.keyPair). */
export const eventKeyPairs = (event: BlockEvent): { key: Buffer; value: Buffer }[] => {
  checkEvent(event);
  const value = sha256(eventCodec.encode(event));
  return event.topics.map((topic, i) => ({ key: eventKey(event, i, sha256(topic)), value }));
};

/**
 * The header's eventRoot: a fresh sparse Merkle tree (key length 12) over every event's key pairs.
 * The events' encodings, and each distinct topic (a transaction's ID tops all of its events, the
 * generator's address every fee event), are hashed in one batch (sha256All).
 */
export const computeEventRoot = (events: readonly BlockEvent[]): Buffer => {
  const encodings: Buffer[] = new Array(events.length);
  const topicNumbers = new Map<string, number>();
  const topics: Buffer[] = [];
  // per event's topic, in order: the number of its distinct topic
  const topicOf: number[] = [];
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    checkEvent(event);
    encodings[e] = eventCodec.encode(event);
    for (const topic of event.topics) {
      const id = topic.toString('latin1');
      let n = topicNumbers.get(id);
      if (n === undefined) {
        n = topics.length;
        topics.push(topic);
        topicNumbers.set(id, n);
      }
      topicOf.push(n);
    }
  }
  const values = sha256All(encodings);
  const topicHashes = sha256All(topics);
  const entries: { key: Buffer; value: Buffer }[] = new Array(topicOf.length);
  let pair = 0;
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    for (let i = 0; i < event.topics.length; i++, pair++)
      entries[pair] = { key: eventKey(event, i, topicHashes[topicOf[pair]]), value: values[e] };
  }
  return smtRootOf(entries);
};

/** A proof of event-tree keys (topic hash || index) against a block's event root (chain_proveEvents). */
export const proveEvents = (events: readonly BlockEvent[], queryKeys: readonly Buffer[]): SMTProof => {
  const store = new InMemorySMTStore();
  const tree = new SparseMerkleTree(EVENT_KEY_LENGTH, store);
  const root = store.apply(tree.update(EMPTY_HASH, events.flatMap(eventKeyPairs)));
  return tree.prove(root, queryKeys);
};

import type { CompiledSchema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { sha256 } from '../crypto/hash.js';
import { sha256All } from '../crypto/sha256_x4.js';
import type { SMTProof } from '../tree/index.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree, smtRootOfSorted } from '../tree/index.js';
import { eventSchema } from './schemas.js';

export interface BlockEvent {
  module: string;
  name: string;
  data: Buffer;
  topics: Buffer[];
  height: number;
  index: number;
}

/** What of an event its tree keys are made of; its encoding gives the value. */
export type EventKeySource = Pick<BlockEvent, 'topics' | 'index'>;

export const EVENT_TOPIC_HASH_LENGTH_BYTES = 8;
export const EVENT_TOPIC_INDEX_LENGTH_BITS = 2;
export const EVENT_INDEX_LENGTH_BITS = 30;
/** Event tree keys: 8 bytes of the topic hash || 4 bytes of (event index << 2 | topic index). */
export const EVENT_KEY_LENGTH =
  EVENT_TOPIC_HASH_LENGTH_BYTES + (EVENT_INDEX_LENGTH_BITS + EVENT_TOPIC_INDEX_LENGTH_BITS) / 8;
export const EVENT_MAX_TOPICS_PER_EVENT = 2 ** EVENT_TOPIC_INDEX_LENGTH_BITS;

const eventCodec: CompiledSchema<BlockEvent> = compile<BlockEvent>(eventSchema);

export const encodeEvent = (event: BlockEvent): Buffer => eventCodec.encode(event);

/** The events' encodings, made on the first call and kept: a block's list is encoded once for its event root and its storage. */
export const eventEncodings = (events: readonly BlockEvent[]): (() => readonly Buffer[]) => {
  let encodings: readonly Buffer[] | undefined;
  return () => {
    encodings ??= events.map((event) => {
      checkEvent(event);
      return eventCodec.encode(event);
    });
    return encodings;
  };
};
export const decodeEvent = (bytes: Uint8Array): BlockEvent => eventCodec.decode(bytes);
export const eventToJSON = (event: BlockEvent) => eventCodec.toJSON(event);

const checkEvent = (event: BlockEvent): void => {
  if (event.topics.length > EVENT_MAX_TOPICS_PER_EVENT)
    throw new Error(`An event has at most ${EVENT_MAX_TOPICS_PER_EVENT} topics`);
  if (!Number.isInteger(event.index) || event.index < 0 || event.index >= 2 ** EVENT_INDEX_LENGTH_BITS)
    throw new Error('Event index out of range');
};

/** The event-tree key of an event's topic: 8 bytes of the topic's hash || (event index << 2 | topic index). */
const eventKey = (event: EventKeySource, topicIndex: number, hashOfTopic: Buffer): Buffer => {
  const key = Buffer.allocUnsafe(EVENT_KEY_LENGTH);
  // eight bytes by hand: a native copy call costs more than they do
  for (let i = 0; i < EVENT_TOPIC_HASH_LENGTH_BYTES; i++) key[i] = hashOfTopic[i];
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
 * A block's events share few topics (a transaction's ID tops all of its events, the generator's address
 * every fee event): the events' encodings and the distinct topics are hashed in one batch each
 * (sha256All), and the entries come out in key order without sorting them: grouped by their 8 bytes of
 * topic hash (the groups sorted), in the events' order within a group (their indexes rise in a block).
 * `encodings`: the events' encodings when the caller has them (eventEncodings).
 */
export const computeEventRoot = (
  events: readonly BlockEvent[],
  encodings: readonly Buffer[] = eventEncodings(events)(),
): Buffer => eventRootOf(events, encodings);

/** computeEventRoot from the events' topics, indexes and encodings alone (checked by eventEncodings already). */
export const eventRootOf = (events: readonly EventKeySource[], encodings: readonly Buffer[]): Buffer => {
  if (encodings.length !== events.length) throw new Error('One encoding per event is needed');
  // the same topic is mostly the same Buffer (a transaction's ID, an account's address): looked up by identity first
  const byBuffer = new Map<Buffer, number>();
  const byBytes = new Map<string, number>();
  const topics: Buffer[] = [];
  // per event's topic, in order: the number of its distinct topic
  const topicOf: number[] = [];
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    for (const topic of event.topics) {
      let n = byBuffer.get(topic);
      if (n === undefined) {
        const id = topic.toString('latin1');
        n = byBytes.get(id);
        if (n === undefined) {
          n = topics.length;
          topics.push(topic);
          byBytes.set(id, n);
        }
        byBuffer.set(topic, n);
      }
      topicOf.push(n);
    }
  }
  const values = sha256All(encodings);
  const topicHashes = sha256All(topics);
  // groups of keys by their 8 bytes of topic hash: one per distinct topic, unless two topics' hashes share them
  const groupOf = new Int32Array(topics.length);
  const groupNumbers = new Map<string, number>();
  const firstTopic: number[] = [];
  topicHashes.forEach((hash, n) => {
    const prefix = hash.toString('latin1', 0, EVENT_TOPIC_HASH_LENGTH_BYTES);
    let g = groupNumbers.get(prefix);
    if (g === undefined) {
      g = firstTopic.length;
      firstTopic.push(n);
      groupNumbers.set(prefix, g);
    }
    groupOf[n] = g;
  });
  const groups: { key: Buffer; value: Buffer; index: number }[][] = firstTopic.map(() => []);
  for (let e = 0, pair = 0; e < events.length; e++) {
    const event = events[e];
    for (let i = 0; i < event.topics.length; i++, pair++) {
      const topic = topicOf[pair];
      groups[groupOf[topic]].push({
        key: eventKey(event, i, topicHashes[topic]),
        value: values[e],
        index: event.index * 2 ** EVENT_TOPIC_INDEX_LENGTH_BITS + i,
      });
    }
  }
  const high = firstTopic.map((n) => topicHashes[n].readUInt32BE(0));
  const low = firstTopic.map((n) => topicHashes[n].readUInt32BE(4));
  const order = firstTopic.map((_, g) => g).sort((a, b) => high[a] - high[b] || low[a] - low[b]);
  const entries: { key: Buffer; value: Buffer }[] = [];
  for (const g of order) {
    let group = groups[g];
    for (let i = 1; i < group.length; i++)
      if (group[i - 1].index >= group[i].index) {
        group = [...group].sort((a, b) => a.index - b.index);
        break;
      }
    for (const { key, value } of group) entries.push({ key, value });
  }
  return smtRootOfSorted(entries);
};

/** A proof of event-tree keys (topic hash || index) against a block's event root (chain_proveEvents). */
export const proveEvents = (events: readonly BlockEvent[], queryKeys: readonly Buffer[]): SMTProof => {
  const store = new InMemorySMTStore();
  const tree = new SparseMerkleTree(EVENT_KEY_LENGTH, store);
  const root = store.apply(tree.update(EMPTY_HASH, events.flatMap(eventKeyPairs)));
  return tree.prove(root, queryKeys);
};

import type { CompiledSchema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { sha256 } from '../crypto/hash.js';
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

const topicHash = (topic: Buffer): Buffer => sha256(topic);

const keyPairsOf = (event: BlockEvent, hashOfTopic: (topic: Buffer) => Buffer): { key: Buffer; value: Buffer }[] => {
  if (event.topics.length > EVENT_MAX_TOPICS_PER_EVENT)
    throw new Error(`An event has at most ${EVENT_MAX_TOPICS_PER_EVENT} topics`);
  if (!Number.isInteger(event.index) || event.index < 0 || event.index >= 2 ** EVENT_INDEX_LENGTH_BITS)
    throw new Error('Event index out of range');
  const value = sha256(eventCodec.encode(event));
  const firstIndex = event.index * 2 ** EVENT_TOPIC_INDEX_LENGTH_BITS;
  return event.topics.map((topic, i) => {
    const key = Buffer.allocUnsafe(EVENT_KEY_LENGTH);
    hashOfTopic(topic).copy(key, 0, 0, EVENT_TOPIC_HASH_LENGTH_BYTES);
    key.writeUInt32BE(firstIndex + i, EVENT_TOPIC_HASH_LENGTH_BYTES);
    return { key, value };
  });
};

/** One event-tree entry per topic; the value is the hash of the encoded event (@klayr/chain Event.keyPair). */
export const eventKeyPairs = (event: BlockEvent): { key: Buffer; value: Buffer }[] => keyPairsOf(event, topicHash);

/**
 * The header's eventRoot: a fresh sparse Merkle tree (key length 12) over every event's key pairs.
 * A block's events share few topics (a transaction's ID tops all of its events, the generator's address
 * every fee event): each distinct topic is hashed once.
 */
export const computeEventRoot = (events: readonly BlockEvent[]): Buffer => {
  const hashes = new Map<string, Buffer>();
  const cachedTopicHash = (topic: Buffer): Buffer => {
    const id = topic.toString('latin1');
    let hash = hashes.get(id);
    if (hash === undefined) {
      hash = sha256(topic);
      hashes.set(id, hash);
    }
    return hash;
  };
  const entries: { key: Buffer; value: Buffer }[] = [];
  for (const event of events) for (const pair of keyPairsOf(event, cachedTopicHash)) entries.push(pair);
  return smtRootOf(entries);
};

/** A proof of event-tree keys (topic hash || index) against a block's event root (chain_proveEvents). */
export const proveEvents = (events: readonly BlockEvent[], queryKeys: readonly Buffer[]): SMTProof => {
  const store = new InMemorySMTStore();
  const tree = new SparseMerkleTree(EVENT_KEY_LENGTH, store);
  const root = store.apply(tree.update(EMPTY_HASH, events.flatMap(eventKeyPairs)));
  return tree.prove(root, queryKeys);
};

// One half of the peer book (peer_book/base_list.js, new_list.js, tried_list.js): peers spread over buckets chosen
// by the node's secret, a full bucket making room by expiry (new list, entries older than 24 h) or at random.
import { EVICTION_THRESHOLD_TIME_MS, MAX_RECONNECT_TRIES } from '../constants.js';
import { bucketId, type PeerListKind } from './buckets.js';
import type { KnownPeer } from './known_peer.js';

interface Entry {
  peer: KnownPeer;
  readonly dateAdded: number;
  numOfConnectionFailures: number;
  readonly bucketId: number;
}

export interface BucketListOptions {
  readonly kind: PeerListKind;
  readonly bucketCount: number;
  readonly bucketSize: number;
  readonly secret: number;
  readonly evictionThresholdMs?: number;
  readonly maxReconnectTries?: number;
  /** Clock and randomness, for tests. */
  readonly now?: () => number;
  readonly random?: () => number;
}

export class BucketList {
  readonly #buckets: Map<string, Entry>[];
  readonly #byId = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #random: () => number;

  constructor(readonly options: BucketListOptions) {
    this.#buckets = Array.from({ length: options.bucketCount }, () => new Map<string, Entry>());
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
  }

  /** Every peer, bucket by bucket (the order @klayr/p2p's peerList getter gives). */
  get peers(): KnownPeer[] {
    const out: KnownPeer[] = [];
    for (const bucket of this.#buckets) for (const entry of bucket.values()) out.push(entry.peer);
    return out;
  }

  get size(): number {
    return this.#byId.size;
  }

  has(peerId: string): boolean {
    return this.#byId.has(peerId);
  }

  get(peerId: string): KnownPeer | undefined {
    return this.#byId.get(peerId)?.peer;
  }

  bucketOf(peerId: string): number | undefined {
    return this.#byId.get(peerId)?.bucketId;
  }

  /** The bucket a peer goes to in this list. */
  bucketFor(peer: Pick<KnownPeer, 'ipAddress' | 'sourceAddress'>): number {
    return bucketId({
      secret: this.options.secret,
      kind: this.options.kind,
      targetAddress: peer.ipAddress,
      sourceAddress: this.options.kind === 'new' ? peer.sourceAddress : undefined,
      bucketCount: this.options.bucketCount,
    });
  }

  /** Adds a peer that is not in the list yet; returns the peer evicted to make room, if any. */
  add(peer: KnownPeer): KnownPeer | undefined {
    if (this.has(peer.peerId)) throw new Error(`Peer ${peer.peerId} already exists`);
    const id = this.bucketFor(peer);
    const bucket = this.#buckets[id] as Map<string, Entry>;
    const evicted = bucket.size >= this.options.bucketSize ? this.#makeSpace(bucket) : undefined;
    const entry: Entry = { peer, dateAdded: this.#now(), numOfConnectionFailures: 0, bucketId: id };
    bucket.set(peer.peerId, entry);
    this.#byId.set(peer.peerId, entry);
    return evicted;
  }

  update(peer: KnownPeer): boolean {
    const entry = this.#byId.get(peer.peerId);
    if (entry === undefined) return false;
    entry.peer = { ...entry.peer, ...peer };
    return true;
  }

  remove(peerId: string): boolean {
    const entry = this.#byId.get(peerId);
    if (entry === undefined) return false;
    this.#buckets[entry.bucketId]?.delete(peerId);
    this.#byId.delete(peerId);
    return true;
  }

  /**
   * A failed dial: a new peer is dropped; a tried peer is dropped on its 3rd failure (true), else its failures
   * are counted (false).
   */
  failedConnection(peerId: string): boolean {
    if (this.options.kind === 'new') return this.remove(peerId);
    const entry = this.#byId.get(peerId);
    if (entry === undefined) return false;
    if (entry.numOfConnectionFailures + 1 >= (this.options.maxReconnectTries ?? MAX_RECONNECT_TRIES))
      return this.remove(peerId);
    entry.numOfConnectionFailures += 1;
    return false;
  }

  #makeSpace(bucket: Map<string, Entry>): KnownPeer | undefined {
    if (this.options.kind === 'new') {
      const threshold = this.options.evictionThresholdMs ?? EVICTION_THRESHOLD_TIME_MS;
      for (const [peerId, entry] of bucket) {
        if (Math.abs(this.#now() - entry.dateAdded) >= threshold) {
          this.#drop(bucket, peerId);
          return entry.peer;
        }
      }
    }
    const ids = [...bucket.keys()];
    const victim = ids[Math.floor(this.#random() * ids.length)];
    if (victim === undefined) return undefined;
    const entry = bucket.get(victim);
    this.#drop(bucket, victim);
    return entry?.peer;
  }

  #drop(bucket: Map<string, Entry>, peerId: string): void {
    bucket.delete(peerId);
    this.#byId.delete(peerId);
  }
}

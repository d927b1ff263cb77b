// The peer book (peer_book/peer_book.js): new and tried lists, the configured seed/fixed/whitelisted peers,
// blacklisted IPs and IPs banned for a while.
import { ipOfPeerId } from '../../../lib/chain/peer_id.js';
import { NEW_BUCKET_COUNT, NEW_BUCKET_SIZE, TRIED_BUCKET_COUNT, TRIED_BUCKET_SIZE } from '../constants.js';
import { BucketList } from './bucket_list.js';
import type { KnownPeer, PeerKind } from './known_peer.js';
import type { SanitizedPeerLists } from './sanitize.js';

export interface PeerBookOptions {
  readonly lists: SanitizedPeerLists;
  readonly secret: number;
  readonly now?: () => number;
  readonly random?: () => number;
}

export class PeerBook {
  readonly newList: BucketList;
  readonly triedList: BucketList;
  readonly seedPeers: readonly KnownPeer[];
  readonly fixedPeers: readonly KnownPeer[];
  readonly whitelistedPeers: readonly KnownPeer[];
  readonly #blacklistedIPs: ReadonlySet<string>;
  readonly #bannedIPs = new Set<string>();
  readonly #unbanTimers = new Set<NodeJS.Timeout>();
  readonly #random: () => number;

  constructor(options: PeerBookOptions) {
    const { lists, secret } = options;
    this.#random = options.random ?? Math.random;
    const common = { secret, now: options.now, random: options.random };
    this.newList = new BucketList({
      kind: 'new',
      bucketCount: NEW_BUCKET_COUNT,
      bucketSize: NEW_BUCKET_SIZE,
      ...common,
    });
    this.triedList = new BucketList({
      kind: 'tried',
      bucketCount: TRIED_BUCKET_COUNT,
      bucketSize: TRIED_BUCKET_SIZE,
      ...common,
    });
    this.#blacklistedIPs = new Set(lists.blacklistedIPs);
    this.seedPeers = lists.seedPeers;
    this.fixedPeers = lists.fixedPeers;
    this.whitelistedPeers = lists.whitelisted;
    for (const peer of [...lists.fixedPeers, ...lists.whitelisted, ...lists.previousPeers]) {
      if (!this.hasPeer(peer.peerId)) this.addPeer(peer);
      this.upgradePeer(peer);
    }
  }

  get newPeers(): KnownPeer[] {
    return this.newList.peers;
  }

  get triedPeers(): KnownPeer[] {
    return this.triedList.peers;
  }

  get allPeers(): KnownPeer[] {
    return [...this.newPeers, ...this.triedPeers];
  }

  /** Blacklisted and currently banned IPs. */
  isBannedIP(ipAddress: string): boolean {
    return this.#blacklistedIPs.has(ipAddress) || this.#bannedIPs.has(ipAddress);
  }

  get bannedIPs(): ReadonlySet<string> {
    return new Set([...this.#blacklistedIPs, ...this.#bannedIPs]);
  }

  getPeer(peerId: string): KnownPeer | undefined {
    return this.triedList.get(peerId) ?? this.newList.get(peerId);
  }

  hasPeer(peerId: string): boolean {
    return this.triedList.has(peerId) || this.newList.has(peerId);
  }

  /** Into the new list, unless its IP is banned (false) or it is already known (false). */
  addPeer(peer: KnownPeer): boolean {
    if (this.#bannedIPs.has(peer.ipAddress) || this.hasPeer(peer.peerId)) return false;
    this.newList.add(this.#withKind(peer));
    return true;
  }

  removePeer(peerId: string): void {
    this.newList.remove(peerId);
    this.triedList.remove(peerId);
  }

  updatePeer(peer: KnownPeer): boolean {
    if (this.triedList.has(peer.peerId)) return this.triedList.update(this.#withKind(peer));
    if (this.newList.has(peer.peerId)) return this.newList.update(this.#withKind(peer));
    return false;
  }

  /** A peer we connected to moves from the new list to the tried list. */
  upgradePeer(peer: KnownPeer): boolean {
    if (this.triedList.has(peer.peerId)) return true;
    if (!this.newList.has(peer.peerId)) return false;
    const known = this.newList.get(peer.peerId);
    this.removePeer(peer.peerId);
    if (this.isBannedIP(peer.ipAddress)) return false;
    this.triedList.add(this.#withKind({ ...known, ...peer }));
    return true;
  }

  /** A failed dial: new peers are dropped, tried peers go back to the new list after 3 failures. */
  downgradePeer(peer: KnownPeer): boolean {
    if (this.isTrustedPeer(peer.peerId)) return false;
    if (this.newList.has(peer.peerId)) return this.newList.failedConnection(peer.peerId);
    if (this.triedList.has(peer.peerId) && this.triedList.failedConnection(peer.peerId)) return this.addPeer(peer);
    return false;
  }

  /** Seed, whitelisted and fixed peers take no penalties. */
  isTrustedPeer(peerId: string): boolean {
    return [this.seedPeers, this.whitelistedPeers, this.fixedPeers].some((list) =>
      list.some((p) => p.peerId === peerId),
    );
  }

  /**
   * Bans the peer's IP for `banTimeMs` (unless the peer is fixed or whitelisted, matched by peer id) and forgets
   * every peer on that IP.
   */
  addBannedPeer(peerId: string, banTimeMs: number): boolean {
    const ip = ipOfPeerId(peerId);
    if (this.isBannedIP(ip)) return false;
    if (this.fixedPeers.some((p) => p.peerId === peerId) || this.whitelistedPeers.some((p) => p.peerId === peerId))
      return false;
    this.#bannedIPs.add(ip);
    for (const peer of this.allPeers) if (peer.ipAddress === ip) this.removePeer(peer.peerId);
    const timer = setTimeout(() => {
      this.#bannedIPs.delete(ip);
      this.#unbanTimers.delete(timer);
    }, banTimeMs);
    timer.unref();
    this.#unbanTimers.add(timer);
    return true;
  }

  cleanUpTimers(): void {
    for (const timer of this.#unbanTimers) clearTimeout(timer);
    this.#unbanTimers.clear();
  }

  /** A random quarter to half of all known peers, at least `minimum` of them (getRandomizedPeerList). */
  randomizedPeerList(minimum: number, maximum: number): KnownPeer[] {
    const all = this.allPeers;
    const min = Math.ceil(Math.min(maximum, all.length * 0.25));
    const max = Math.floor(Math.min(maximum, all.length * 0.5));
    const random = Math.floor(this.#random() * (max - min + 1) + min);
    const count = Math.max(random, Math.min(minimum, all.length));
    return shuffle(all, this.#random).slice(0, count);
  }

  #withKind(peer: KnownPeer): KnownPeer {
    return { ...peer, peerKind: this.#kindOf(peer.ipAddress) };
  }

  /** The kind follows the IP, as _assignPeerKind matches configured peers by IP address. */
  #kindOf(ipAddress: string): PeerKind {
    if (this.fixedPeers.some((p) => p.ipAddress === ipAddress)) return 'fixedPeer';
    if (this.whitelistedPeers.some((p) => p.ipAddress === ipAddress)) return 'whitelistedPeer';
    if (this.seedPeers.some((p) => p.ipAddress === ipAddress)) return 'seedPeer';
    return 'none';
  }
}

/** Fisher-Yates, as lodash.shuffle. */
export const shuffle = <T>(items: readonly T[], random: () => number = Math.random): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
};

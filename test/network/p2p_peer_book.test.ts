// The peer book: bucket placement by the node's secret (checked against @klayr/p2p's own functions), moves
// between the new and tried lists, eviction, bans, and the configured-list sanitizer.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { bucketId, netgroup } from '../../src/network/p2p/peers/buckets.js';
import type { KnownPeer } from '../../src/network/p2p/peers/known_peer.js';
import { PeerBook } from '../../src/network/p2p/peers/peer_book.js';
import { sanitizePeerLists } from '../../src/network/p2p/peers/sanitize.js';
import { selectPeersForConnection, selectPeersForSend } from '../../src/network/p2p/peers/select.js';
import type { PeerAddress } from '../../src/network/p2p/types.js';

const require = createRequire(import.meta.url);
const klayrNetwork = require('@klayr/p2p/dist-node/utils/network.js') as {
  getBucketId(o: {
    secret: number;
    peerType: string;
    targetAddress: string;
    sourceAddress?: string;
    bucketCount: number;
  }): number;
  getNetgroup(address: string, secret: number): number;
};
const klayrSanitize = require('@klayr/p2p/dist-node/utils/sanitize.js') as {
  sanitizePeerLists(
    lists: Record<string, unknown>,
    node: { peerId: string; ipAddress: string; port: number },
    secret: number,
  ): Record<string, { peerId: string }[] | string[]>;
};

/** A deterministic generator (mulberry32) for addresses and secrets. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const random = seeded(42);
const octet = () => Math.floor(random() * 256);
const publicIP = () => `${1 + Math.floor(random() * 9)}${octet() % 10}.${octet()}.${octet()}.${octet()}`;
const peer = (ipAddress: string, port = 7667, extra: Partial<KnownPeer> = {}): KnownPeer => ({
  peerId: `${ipAddress}:${port}`,
  ipAddress,
  port,
  ...extra,
});
const noLists = { blacklistedIPs: [], seedPeers: [], fixedPeers: [], whitelisted: [], previousPeers: [] };

describe('bucket placement', () => {
  it('matches @klayr/p2p getBucketId for new peers (by source) and tried peers, over secrets and addresses', () => {
    for (let i = 0; i < 300; i++) {
      const secret = Math.floor(random() * 2 ** 32);
      const targetAddress = i % 10 === 0 ? `10.0.${octet()}.${octet()}` : i % 10 === 1 ? '127.0.0.5' : publicIP();
      const sourceAddress = publicIP();
      for (const [kind, peerType, bucketCount] of [
        ['new', 'newPeer', 128],
        ['tried', 'triedPeer', 64],
      ] as const) {
        const source = kind === 'new' ? sourceAddress : undefined;
        assert.equal(
          bucketId({ secret, kind, targetAddress, sourceAddress: source, bucketCount }),
          klayrNetwork.getBucketId({ secret, peerType, targetAddress, sourceAddress: source, bucketCount }),
          `${kind} ${targetAddress} from ${sourceAddress} secret ${secret}`,
        );
      }
    }
  });

  it('matches @klayr/p2p getNetgroup', () => {
    for (let i = 0; i < 100; i++) {
      const secret = Math.floor(random() * 2 ** 32);
      const address = i % 3 === 0 ? `172.16.${octet()}.${octet()}` : publicIP();
      assert.equal(netgroup(address, secret), klayrNetwork.getNetgroup(address, secret));
    }
  });

  it('depends on the secret', () => {
    const buckets = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map((secret) =>
        bucketId({ secret, kind: 'tried', targetAddress: '8.8.8.8', bucketCount: 64 }),
      ),
    );
    assert.ok(buckets.size > 1);
  });

  it('refuses addresses that are not IPv4', () => {
    assert.throws(() => bucketId({ secret: 1, kind: 'tried', targetAddress: '::1', bucketCount: 64 }), /unsupported/);
  });
});

describe('new and tried lists', () => {
  it('a peer added is new; upgraded it is tried, in the bucket its address and the secret pick', () => {
    const book = new PeerBook({ lists: noLists, secret: 7 });
    const p = peer('8.8.4.4');
    assert.equal(book.addPeer({ ...p, sourceAddress: '1.2.3.4' }), true);
    assert.equal(
      book.newList.bucketOf(p.peerId),
      bucketId({ secret: 7, kind: 'new', targetAddress: '8.8.4.4', sourceAddress: '1.2.3.4', bucketCount: 128 }),
    );
    assert.equal(book.addPeer(p), false, 'a known peer is not added twice');
    assert.equal(book.upgradePeer(p), true);
    assert.deepEqual(book.newPeers, []);
    assert.deepEqual(
      book.triedPeers.map((x) => x.peerId),
      [p.peerId],
    );
    assert.equal(
      book.triedList.bucketOf(p.peerId),
      bucketId({ secret: 7, kind: 'tried', targetAddress: '8.8.4.4', bucketCount: 64 }),
    );
  });

  it('a failed dial drops a new peer at once and a tried peer after three failures, into the new list', () => {
    const book = new PeerBook({ lists: noLists, secret: 7 });
    const fresh = peer('9.9.9.9');
    book.addPeer(fresh);
    assert.equal(book.downgradePeer(fresh), true);
    assert.equal(book.hasPeer(fresh.peerId), false);
    const tried = peer('8.8.8.8');
    book.addPeer(tried);
    book.upgradePeer(tried);
    assert.equal(book.downgradePeer(tried), false);
    assert.equal(book.downgradePeer(tried), false);
    assert.equal(book.triedList.has(tried.peerId), true);
    assert.equal(book.downgradePeer(tried), true);
    assert.equal(book.triedList.has(tried.peerId), false);
    assert.equal(book.newList.has(tried.peerId), true);
  });

  it('configured fixed, whitelisted and previous peers start tried; seeds are trusted but not in the book', () => {
    const lists = sanitizePeerLists(
      {
        blacklistedIPs: [],
        seedPeers: [{ ipAddress: '1.1.1.1', port: 1 }],
        fixedPeers: [{ ipAddress: '2.2.2.2', port: 2 }],
        whitelisted: [{ ipAddress: '3.3.3.3', port: 3 }],
        previousPeers: [{ ipAddress: '4.4.4.4', port: 4 }],
      },
      '127.0.0.1',
    );
    const book = new PeerBook({ lists, secret: 7 });
    assert.deepEqual(book.triedPeers.map((p) => p.peerId).sort(), ['2.2.2.2:2', '3.3.3.3:3', '4.4.4.4:4']);
    assert.deepEqual(book.triedPeers.map((p) => p.peerKind).sort(), ['fixedPeer', 'none', 'whitelistedPeer']);
    assert.equal(book.isTrustedPeer('1.1.1.1:1'), true);
    assert.equal(book.isTrustedPeer('2.2.2.2:2'), true);
    assert.equal(book.isTrustedPeer('4.4.4.4:4'), false);
    assert.equal(book.downgradePeer(peer('2.2.2.2', 2)), false, 'trusted peers are never downgraded');
  });

  it('a full bucket evicts one of its peers at random (all loopback peers share one bucket)', () => {
    const book = new PeerBook({ lists: noLists, secret: 7, random: () => 0 });
    for (let i = 1; i <= 32; i++) book.addPeer(peer(`127.0.0.${i}`));
    assert.equal(book.newPeers.length, 32);
    book.addPeer(peer('127.0.0.200'));
    assert.equal(book.newPeers.length, 32);
    assert.equal(book.hasPeer('127.0.0.200:7667'), true);
    assert.equal(book.hasPeer('127.0.0.1:7667'), false, 'random() = 0 picks the first peer of the bucket');
  });

  it('a full new bucket evicts a peer older than 24 h before evicting at random', () => {
    let now = 0;
    const book = new PeerBook({ lists: noLists, secret: 7, now: () => now, random: () => 0.999 });
    book.addPeer(peer('127.0.0.1'));
    now = 1000;
    for (let i = 2; i <= 32; i++) book.addPeer(peer(`127.0.0.${i}`));
    now = 86_400_000 + 500; // only the first peer is 24 h old
    book.addPeer(peer('127.0.0.99'));
    assert.equal(book.hasPeer('127.0.0.1:7667'), false);
    assert.equal(book.hasPeer('127.0.0.32:7667'), true);
  });
});

describe('bans', () => {
  it('ban the IP, forget its peers, and lift after the ban time', async () => {
    const book = new PeerBook({ lists: noLists, secret: 7 });
    book.addPeer(peer('5.5.5.5', 1));
    book.addPeer(peer('5.5.5.5', 2));
    book.addPeer(peer('6.6.6.6', 1));
    assert.equal(book.addBannedPeer('5.5.5.5:1', 50), true);
    assert.equal(book.isBannedIP('5.5.5.5'), true);
    assert.deepEqual(
      book.allPeers.map((p) => p.peerId),
      ['6.6.6.6:1'],
    );
    assert.equal(book.addPeer(peer('5.5.5.5', 3)), false, 'a banned IP is not added');
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(book.isBannedIP('5.5.5.5'), false);
    book.cleanUpTimers();
  });

  it('bans the whole address of an IPv6 or IPv4-mapped peer id (a dual-stack server), not what precedes its first colon', () => {
    const book = new PeerBook({ lists: noLists, secret: 7 });
    assert.equal(book.addBannedPeer('::ffff:127.0.0.2:40001', 1000), true);
    assert.equal(book.isBannedIP('::ffff:127.0.0.2'), true);
    assert.equal(book.isBannedIP(''), false);
    assert.equal(book.isBannedIP('::ffff:127.0.0.3'), false);
    assert.equal(book.addBannedPeer('::ffff:127.0.0.2:40002', 1000), false, 'already banned from any port');
    book.cleanUpTimers();
  });

  it('never bans fixed or whitelisted peers (matched by peer id), blacklisted IPs stay banned', () => {
    const lists = sanitizePeerLists(
      {
        ...noLists,
        fixedPeers: [{ ipAddress: '2.2.2.2', port: 2 }],
        whitelisted: [{ ipAddress: '3.3.3.3', port: 3 }],
        blacklistedIPs: ['7.7.7.7'],
      },
      '127.0.0.1',
    );
    const book = new PeerBook({ lists, secret: 7 });
    assert.equal(book.addBannedPeer('2.2.2.2:2', 1000), false);
    assert.equal(book.addBannedPeer('3.3.3.3:3', 1000), false);
    assert.equal(book.isBannedIP('2.2.2.2'), false);
    assert.equal(book.isBannedIP('7.7.7.7'), true);
    book.cleanUpTimers();
  });
});

describe('sanitizing the configured lists', () => {
  it('keeps what @klayr/p2p keeps: IPv4 only, not the host IP, not blacklisted, each peer in one list', () => {
    const lists = {
      blacklistedIPs: ['9.9.9.9', '127.0.0.2'],
      seedPeers: [
        { ipAddress: '1.1.1.1', port: 1 },
        { ipAddress: '127.0.0.2', port: 5 },
        { ipAddress: '9.9.9.9', port: 1 },
        { ipAddress: 'seed.example.org', port: 1 },
        { ipAddress: '2.2.2.2', port: 2 },
        { ipAddress: '1.1.1.1', port: 1 },
      ],
      fixedPeers: [{ ipAddress: '2.2.2.2', port: 2 }],
      whitelisted: [
        { ipAddress: '1.1.1.1', port: 1 },
        { ipAddress: '3.3.3.3', port: 3 },
      ],
      previousPeers: [
        { ipAddress: '3.3.3.3', port: 3 },
        { ipAddress: '4.4.4.4', port: 4 },
      ],
    };
    const ours = sanitizePeerLists(lists, '127.0.0.2');
    // p2p.js gives the sanitizer peers with their ids (sanitizeInitialPeerInfo)
    const withIds = (l: readonly PeerAddress[]) => l.map((p) => ({ ...p, peerId: `${p.ipAddress}:${p.port}` }));
    const klayr = klayrSanitize.sanitizePeerLists(
      {
        blacklistedIPs: lists.blacklistedIPs,
        seedPeers: withIds(lists.seedPeers),
        fixedPeers: withIds(lists.fixedPeers),
        whitelisted: withIds(lists.whitelisted),
        previousPeers: withIds(lists.previousPeers),
      },
      { peerId: '127.0.0.2:7667', ipAddress: '127.0.0.2', port: 7667 },
      7,
    );
    const ids = (l: readonly unknown[]) => (l as { peerId: string }[]).map((p) => p.peerId);
    assert.deepEqual(ours.blacklistedIPs, klayr.blacklistedIPs);
    for (const key of ['seedPeers', 'fixedPeers', 'whitelisted', 'previousPeers'] as const)
      assert.deepEqual(ids(ours[key]), ids(klayr[key] as unknown[]), key);
    assert.deepEqual(ids(ours.seedPeers), ['1.1.1.1:1', '1.1.1.1:1']);
  });
});

describe('peer selection', () => {
  it('send: half the limit from the rarer connection kind, the rest from the other, plus fixed peers', () => {
    const make = (i: number, connectionKind: 'inbound' | 'outbound', peerKind: KnownPeer['peerKind'] = 'none') => ({
      peerId: `p${i}`,
      ipAddress: `1.1.1.${i}`,
      connectionKind,
      peerKind,
      reputation: 100,
    });
    const peers = [
      ...Array.from({ length: 20 }, (_, i) => make(i, 'inbound')),
      ...Array.from({ length: 5 }, (_, i) => make(100 + i, 'outbound')),
      make(200, 'outbound', 'fixedPeer'),
    ];
    const selected = selectPeersForSend(peers, 16);
    assert.equal(selected.filter((p) => p.connectionKind === 'outbound').length, 6);
    assert.equal(selected.filter((p) => p.connectionKind === 'inbound').length, 10);
    assert.ok(selected.some((p) => p.peerKind === 'fixedPeer'));
    assert.equal(new Set(selected.map((p) => p.peerId)).size, selected.length);
  });

  it('connection: every peer once per IP when the slots suffice, else at most the free slots', () => {
    const newPeers = [peer('1.1.1.1', 1), peer('1.1.1.1', 2), peer('2.2.2.2')];
    const triedPeers = [peer('3.3.3.3')];
    assert.deepEqual(
      selectPeersForConnection({ newPeers, triedPeers, peerLimit: 10 })
        .map((p) => p.ipAddress)
        .sort(),
      ['1.1.1.1', '2.2.2.2', '3.3.3.3'],
    );
    const many: PeerAddress[] = Array.from({ length: 50 }, (_, i) => ({ ipAddress: `4.4.${i}.1`, port: 1 }));
    const picked = selectPeersForConnection({ newPeers: many.map((p) => peer(p.ipAddress)), triedPeers, peerLimit: 5 });
    assert.ok(picked.length <= 5 && picked.length > 0);
    assert.deepEqual(selectPeersForConnection({ newPeers: [], triedPeers: [], peerLimit: 5 }), []);
  });
});

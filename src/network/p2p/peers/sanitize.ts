// The configured peer lists as @klayr/p2p's utils/sanitize.js cleans them: IPv4 only, never the node's own host IP
// nor a blacklisted IP, and each peer in one list only (fixed before seed before whitelisted before previous).
import { isIPv4 } from 'node:net';
import type { PeerAddress } from '../types.js';
import { type KnownPeer, type PeerKind, peerIdOf } from './known_peer.js';

export interface SanitizedPeerLists {
  readonly blacklistedIPs: readonly string[];
  readonly seedPeers: readonly KnownPeer[];
  readonly fixedPeers: readonly KnownPeer[];
  readonly whitelisted: readonly KnownPeer[];
  readonly previousPeers: readonly KnownPeer[];
}

export interface PeerLists {
  readonly blacklistedIPs: readonly string[];
  readonly seedPeers: readonly PeerAddress[];
  readonly fixedPeers: readonly PeerAddress[];
  readonly whitelisted: readonly PeerAddress[];
  readonly previousPeers: readonly PeerAddress[];
}

export const sanitizePeerLists = (lists: PeerLists, hostIp: string): SanitizedPeerLists => {
  const blacklistedIPs = lists.blacklistedIPs.filter((ip) => ip !== hostIp);
  const usable = (p: PeerAddress): boolean =>
    isIPv4(p.ipAddress) && p.ipAddress !== hostIp && !blacklistedIPs.includes(p.ipAddress);
  const taken = new Set<string>();
  const pick = (peers: readonly PeerAddress[], peerKind: PeerKind | undefined): KnownPeer[] => {
    const out: KnownPeer[] = [];
    for (const p of peers) {
      const peerId = peerIdOf(p.ipAddress, p.port);
      if (!usable(p) || taken.has(peerId)) continue;
      out.push(
        peerKind === undefined
          ? { peerId, ipAddress: p.ipAddress, port: p.port }
          : { peerId, ipAddress: p.ipAddress, port: p.port, peerKind },
      );
    }
    return out;
  };
  const markTaken = (peers: readonly KnownPeer[]): void => {
    for (const p of peers) taken.add(p.peerId);
  };
  const fixedPeers = pick(lists.fixedPeers, 'fixedPeer');
  markTaken(fixedPeers);
  const seedPeers = pick(lists.seedPeers, 'seedPeer');
  markTaken(seedPeers);
  const whitelisted = pick(lists.whitelisted, 'whitelistedPeer');
  markTaken(whitelisted);
  const previousPeers = pick(lists.previousPeers, undefined);
  return { blacklistedIPs, seedPeers, fixedPeers, whitelisted, previousPeers };
};

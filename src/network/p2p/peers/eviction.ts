// Which inbound peer makes room for a new one (peer_pool.js _selectPeersForEviction): never fixed or whitelisted
// peers; protected are the highest netgroups (3.4 %), the lowest latencies (6.8 %), the best response rates (6.8 %),
// then half of the rest by longest connection; one of the remaining peers is picked at random.
import {
  PROTECTION_FOR_LATENCY,
  PROTECTION_FOR_LONGEVITY,
  PROTECTION_FOR_NETGROUP,
  PROTECTION_FOR_USEFULNESS,
} from '../constants.js';
import type { Peer } from './peer.js';
import { shuffle } from './peer_book.js';

/** The `percentage` (rounded up) of peers ranked first by `value`, highest or lowest first. */
const protectedBy = (
  peers: readonly Peer[],
  percentage: number,
  value: (peer: Peer) => number,
  highest: boolean,
): Peer[] => {
  if (percentage > 1 || percentage < 0) return [...peers];
  const count = Math.ceil(peers.length * percentage);
  const sign = highest ? -1 : 1;
  return [...peers].sort((a, b) => (value(a) > value(b) ? sign : -sign)).slice(0, count);
};

export const evictionCandidates = (inbound: readonly Peer[]): Peer[] => {
  const peers = inbound.filter((p) => p.peerKind !== 'whitelistedPeer' && p.peerKind !== 'fixedPeer');
  const kept = new Set<string>([
    ...protectedBy(peers, PROTECTION_FOR_NETGROUP, (p) => p.netgroup, true).map((p) => p.peerId),
    ...protectedBy(peers, PROTECTION_FOR_LATENCY, (p) => p.latency, false).map((p) => p.peerId),
    ...protectedBy(peers, PROTECTION_FOR_USEFULNESS, (p) => p.counters.productivity.responseRate, true).map(
      (p) => p.peerId,
    ),
  ]);
  const unprotected = peers.filter((p) => !kept.has(p.peerId));
  const longLived = new Set(
    protectedBy(unprotected, PROTECTION_FOR_LONGEVITY, (p) => p.connectTime, false).map((p) => p.peerId),
  );
  return unprotected.filter((p) => !longLived.has(p.peerId));
};

export const pickInboundToEvict = (inbound: readonly Peer[], random = Math.random): Peer | undefined =>
  shuffle(evictionCandidates(inbound), random)[0];

export const pickOutboundToEvict = (outbound: readonly Peer[], random = Math.random): Peer | undefined =>
  shuffle(
    outbound.filter((p) => p.peerKind !== 'fixedPeer'),
    random,
  )[0];

// Peer selection as @klayr/p2p's utils/select.js: for a request, for a send (gossip), for new connections.
import type { KnownPeer } from './known_peer.js';
import { shuffle } from './peer_book.js';

export interface SelectablePeer {
  readonly peerId: string;
  readonly ipAddress: string;
  readonly connectionKind: 'inbound' | 'outbound';
  readonly peerKind: KnownPeer['peerKind'];
  readonly reputation: number;
}

/** `peerLimit` random peers among the candidates. */
export const selectPeersForRequest = <T>(peers: readonly T[], peerLimit = 1, random = Math.random): T[] =>
  shuffle(peers, random).slice(0, peerLimit);

/**
 * Up to `peerLimit` peers: half (rounded) from the rarer connection kind, the rest from the other, plus every
 * fixed peer; each once.
 */
export const selectPeersForSend = <T extends SelectablePeer>(
  peers: readonly T[],
  peerLimit: number,
  random = Math.random,
): T[] => {
  const shuffled = shuffle(peers, random);
  const half = Math.round(peerLimit / 2);
  const outbound = shuffled.filter((p) => p.connectionKind === 'outbound');
  const inbound = shuffled.filter((p) => p.connectionKind === 'inbound');
  const fixed = shuffled.filter((p) => p.peerKind === 'fixedPeer');
  const [shortest, longest] = outbound.length < inbound.length ? [outbound, inbound] : [inbound, outbound];
  const first = shortest.slice(0, half);
  const selected = [...first, ...longest.slice(0, peerLimit - first.length), ...fixed];
  const seen = new Set<string>();
  return selected.filter((p) => !seen.has(p.peerId) && seen.add(p.peerId) !== undefined);
};

/** One peer per IP, the best reputation kept (peers without one count 0). */
const removeCommonIPs = (peers: readonly (KnownPeer & { readonly reputation?: number })[]): KnownPeer[] => {
  const byIP = new Map<string, KnownPeer & { readonly reputation?: number }>();
  for (const peer of peers) {
    const kept = byIP.get(peer.ipAddress);
    if (kept === undefined || (peer.reputation ?? 0) > (kept.reputation ?? 0)) byIP.set(peer.ipAddress, peer);
  }
  return [...byIP.values()];
};

/**
 * Peers to dial: all of them when the free slots suffice, else `peerLimit` draws that take a tried peer with
 * probability max(0.5, tried share when 100+ tried peers) and otherwise a new one.
 */
export const selectPeersForConnection = (
  input: {
    readonly newPeers: readonly KnownPeer[];
    readonly triedPeers: readonly KnownPeer[];
    readonly peerLimit?: number;
  },
  random = Math.random,
): KnownPeer[] => {
  const { newPeers, triedPeers, peerLimit } = input;
  if ((peerLimit !== undefined && peerLimit < 0) || (triedPeers.length === 0 && newPeers.length === 0)) return [];
  if (peerLimit === undefined || peerLimit >= triedPeers.length + newPeers.length)
    return removeCommonIPs([...newPeers, ...triedPeers]);
  const minimumProbability = 0.5;
  const x = triedPeers.length < 100 ? minimumProbability : triedPeers.length / (triedPeers.length + newPeers.length);
  const r = Math.max(x, minimumProbability);
  const tried = shuffle(triedPeers, random);
  const fresh = shuffle(newPeers, random);
  const picked: KnownPeer[] = [];
  for (let i = 0; i < peerLimit; i++) {
    let peer: KnownPeer | undefined;
    if (tried.length !== 0 && random() < r) peer = tried.pop();
    else if (fresh.length !== 0) peer = fresh.pop();
    else peer = tried.pop();
    if (peer !== undefined) picked.push(peer);
  }
  return removeCommonIPs(picked);
};

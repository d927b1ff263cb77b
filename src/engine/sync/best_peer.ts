import type { BlockHeader } from '../../lib/chain/block.js';
import { isDifferentChain } from '../consensus/fork_choice.js';
import type { ConnectedPeer, PeerChainInfo } from '../network/peers.js';
import { AbortError } from './errors.js';
import { largestSubsetMaxBy } from './heights.js';

/** A peer that announced its chain. */
export interface PeerWithChain {
  readonly peerId: string;
  readonly options: PeerChainInfo;
}

const REQUIRED = ['blockVersion', 'maxHeightPrevoted', 'height', 'lastBlockID'] as const;

const hasChainInfo = (peer: ConnectedPeer): peer is PeerWithChain =>
  peer.options !== undefined && REQUIRED.every((key) => peer.options?.[key] !== undefined);

interface TipGroup {
  readonly lastBlockID: Buffer;
  readonly peers: PeerWithChain[];
}

/** Peers grouped by the tip they announced, groups in the order of their first peer. */
const groupByLastBlockID = (peers: readonly PeerWithChain[]): TipGroup[] => {
  const groups = new Map<string, TipGroup>();
  for (const peer of peers) {
    const { lastBlockID } = peer.options;
    const key = lastBlockID.toString('hex');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { lastBlockID, peers: [peer] });
    else group.peers.push(peer);
  }
  return [...groups.values()];
};

/**
 * The peer to synchronize from (Klayr's BlockSynchronizationMechanism._computeBestPeer): among
 * the connected peers that announced their chain, those with the highest maxHeightPrevoted, of
 * them those with the greatest height, of them the largest group announcing the same tip (the
 * lowest tip ID among groups of equal size); one of that group at random. Throws when no peer
 * announced its chain, and an AbortError when that chain is not better than `tip`.
 */
export const computeBestPeer = (
  connected: readonly ConnectedPeer[],
  tip: Pick<BlockHeader, 'height' | 'maxHeightPrevoted'>,
  random: () => number = Math.random,
): PeerWithChain => {
  if (connected.length === 0) throw new Error('List of connected peers is empty');
  const compatible = connected.filter(hasChainInfo);
  if (compatible.length === 0) throw new Error('Connected compatible peers list is empty');
  const byPrevoted = largestSubsetMaxBy(compatible, (peer) => peer.options.maxHeightPrevoted);
  const byHeight = largestSubsetMaxBy(byPrevoted, (peer) => peer.options.height);
  const [first, ...others] = groupByLastBlockID(byHeight);
  if (first === undefined) throw new Error('Connected compatible peers list is empty');
  let selected = first;
  for (const group of others) {
    const larger = group.peers.length > selected.peers.length;
    const tieWithLowerID =
      group.peers.length === selected.peers.length && selected.lastBlockID.compare(group.lastBlockID) > 0;
    if (larger || tieWithLowerID) selected = group;
  }
  const pick = (): PeerWithChain => {
    const peer = selected.peers[Math.floor(random() * selected.peers.length)];
    if (peer === undefined) throw new Error('Connected compatible peers list is empty');
    return peer;
  };
  // every peer of the group announced the same height and maxHeightPrevoted: any one of them speaks for it
  const { height, maxHeightPrevoted } = pick().options;
  if (!isDifferentChain(tip, { height, maxHeightPrevoted }))
    throw new AbortError('Peer tip does not have preference over current tip.');
  return pick();
};

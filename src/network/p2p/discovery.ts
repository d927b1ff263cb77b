// What the dialling side asks a peer once connected (peer/base.js fetchAndUpdateStatus, fetchPeers): its node
// info (checked for size and compatibility) and its peer list (checked for length and addresses).
import {
  INVALID_PEER_INFO_LIST_REASON,
  INVALID_PEER_INFO_PENALTY,
  INVALID_PEER_LIST_PENALTY,
  PEER_INFO_LIST_TOO_LONG_REASON,
  RPC_GET_NODE_INFO,
  RPC_GET_PEERS,
} from './constants.js';
import { InvalidPeerDataError } from './errors.js';
import { decodeNodeInfo, decodePeerList } from './node_info.js';
import type { KnownPeer, SharedState } from './peers/known_peer.js';
import type { Peer } from './peers/peer.js';
import { incompatibilityReason, isValidPeerAddress } from './transport/handshake.js';
import type { NodeInfo } from './types.js';

/** getNodeInfo: the peer's node info, or an error (an undecodable answer also costs the peer 100). */
export const fetchNodeInfo = async (peer: Peer, own: NodeInfo, maxPeerInfoSize: number): Promise<SharedState> => {
  const response = await peer.request(RPC_GET_NODE_INFO);
  let info: NodeInfo;
  try {
    info = decodeNodeInfo(response.data);
  } catch (error) {
    peer.applyPenalty(INVALID_PEER_INFO_PENALTY);
    throw error;
  }
  const shared: SharedState = { ...info };
  const size = Buffer.byteLength(
    JSON.stringify({ peerId: peer.peerId, ipAddress: peer.ipAddress, port: peer.port, sharedState: shared }),
  );
  if (size > maxPeerInfoSize)
    throw new Error(`PeerInfo is larger than the maximum allowed size ${maxPeerInfoSize} bytes`);
  const incompatible = incompatibilityReason(info, own);
  if (incompatible !== undefined) throw new Error(`${incompatible} : ${peer.ipAddress}:${peer.port}`);
  return shared;
};

/**
 * getPeers: the peers it knows, each with this peer as the source. More than `maxLength` peers, or one with an
 * invalid address, costs the peer 100 (an undecodable list does not, as in @klayr/p2p).
 */
export const fetchPeers = async (peer: Peer, maxLength: number): Promise<KnownPeer[]> => {
  const response = await peer.request(RPC_GET_PEERS);
  try {
    if (response.data === undefined) throw new InvalidPeerDataError(INVALID_PEER_INFO_LIST_REASON);
    let list: { ipAddress: string; port: number }[];
    try {
      list = decodePeerList(response.data);
    } catch (error) {
      throw new Error((error as Error).message);
    }
    if (list.length > maxLength) throw new InvalidPeerDataError(PEER_INFO_LIST_TOO_LONG_REASON);
    for (const p of list)
      if (!isValidPeerAddress(p.ipAddress, p.port))
        throw new InvalidPeerDataError(
          `Invalid peer ipAddress or port for peer with ip: ${p.ipAddress} and port ${p.port}`,
        );
    return list.map((p) => ({
      peerId: `${p.ipAddress}:${p.port}`,
      ipAddress: p.ipAddress,
      port: p.port,
      sourceAddress: peer.ipAddress,
    }));
  } catch (error) {
    if (error instanceof InvalidPeerDataError) peer.applyPenalty(INVALID_PEER_LIST_PENALTY);
    throw error;
  }
};

/**
 * What the engine needs from the peer-to-peer network, declared here and implemented by
 * src/network (the engine never imports it): answers from peers, gossip, and penalties for
 * peers that misbehave. Payloads are the protocol's encoded bytes; peers are named by
 * `ip:port` as Klayr's P2P layer names them.
 */
export interface PeerResponse {
  readonly peerId: string;
  readonly data: Buffer | undefined;
}

/** What a connected peer announced of its chain (its node info's options, as Klayr's getConnectedPeers lists them). */
export interface PeerChainInfo {
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly blockVersion: number;
  readonly lastBlockID: Buffer;
  /** The snapshot block IDs of the legacy brackets the peer has synced and serves. */
  readonly legacy: readonly Buffer[];
}

/** A connected peer, with what it announced; a peer that announced nothing yet has no options. */
export interface ConnectedPeer {
  readonly peerId: string;
  readonly options?: Partial<PeerChainInfo>;
}

export interface Peers {
  /** A request to a peer chosen by the network layer. */
  request(procedure: string, data?: Buffer): Promise<PeerResponse>;
  requestFromPeer(peerId: string, procedure: string, data?: Buffer): Promise<PeerResponse>;
  /** A message to a selection of connected peers, as Klayr's `send`. */
  send(event: string, data: Buffer): void;
  /** Lowers a peer's reputation; at 0 or below the peer's IP is banned. */
  applyPenalty(peerId: string, penalty: number): void;
  /** The connected peers that advertise their address, as Klayr's getConnectedPeers (block synchronization picks among them). */
  connectedPeers(): readonly ConnectedPeer[];
}

// The contract between the P2P layer (transport, peers) and the protocol layer on top of it. Shapes follow
// @klayr/p2p 0.10.1 (node_modules/@klayr/p2p/dist-node/types.d.ts) so that network_* endpoints answer with Klayr's shapes.
import type { EventEmitter } from 'node:events';

export interface PeerAddress {
  readonly ipAddress: string;
  readonly port: number;
}

/** The framework's custom node info options (klayr-framework engine/network/schema.js customNodeInfoSchema). */
export interface NodeInfoOptions {
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly blockVersion: number;
  readonly lastBlockID: Buffer;
  readonly legacy: readonly Buffer[];
}

export interface NodeInfo {
  readonly chainID: Buffer;
  readonly networkVersion: string;
  readonly nonce: string;
  readonly advertiseAddress: boolean;
  readonly options: NodeInfoOptions;
}

/** As @klayr/p2p's PeerInfo: what getConnectedPeers/getDisconnectedPeers list. */
export interface PeerInfo {
  readonly peerId: string; // `${ipAddress}:${port}`
  readonly ipAddress: string;
  readonly port: number;
  readonly sharedState?: {
    readonly chainID: Buffer;
    readonly networkVersion: string;
    readonly nonce: string;
    readonly advertiseAddress: boolean;
    readonly options: NodeInfoOptions;
  };
  readonly internalState?: {
    readonly reputation: number;
    readonly connectionKind: 'outbound' | 'inbound' | 'none';
    readonly peerKind: 'fixedPeer' | 'whitelistedPeer' | 'seedPeer' | 'none';
    // beyond the contract: as @klayr/p2p's internalState
    readonly latency?: number; // ms of the last ping round trip (inbound peers)
    readonly connectTime?: number; // ms since the epoch
    readonly advertiseAddress?: boolean; // false: never listed to other peers
  };
}

/** As @klayr/p2p's NetworkStats (network_getStats). */
export interface NetworkStats {
  readonly startTime: number;
  readonly incoming: { readonly count: number; readonly connects: number; readonly disconnects: number };
  readonly outgoing: { readonly count: number; readonly connects: number; readonly disconnects: number };
  readonly banning: {
    readonly bannedPeers: Record<string, { readonly lastBanTime: number; readonly banCount: number }>;
    readonly count: number;
  };
  readonly totalConnectedPeers: number;
  readonly totalDisconnectedPeers: number;
  readonly totalErrors: number;
  readonly totalRemovedPeers: number;
  readonly totalMessagesReceived: Record<string, number>;
  readonly totalRequestsReceived: Record<string, number>;
  readonly totalPeersDiscovered: number;
}

export interface P2PConfig {
  readonly hostIp: string; // network.host, default 127.0.0.1 in tests, 0.0.0.0 as Klayr's default
  readonly port: number; // network.port
  readonly nodeInfo: Omit<NodeInfo, 'nonce'>; // the nonce is generated per process (8 random bytes, hex)
  readonly seedPeers: readonly PeerAddress[]; // already resolved to IPs (DNS names resolved by the caller? see brief)
  readonly fixedPeers: readonly PeerAddress[];
  readonly whitelistedPeers: readonly PeerAddress[];
  readonly blacklistedIPs: readonly string[];
  readonly previousPeers: readonly PeerAddress[]; // the tried peers saved by the last run
  readonly maxOutboundConnections: number; // 20
  readonly maxInboundConnections: number; // 100
  readonly wsMaxPayload: number; // 3048576
  readonly secret: number; // per-node secret (uint32), kept in the node's database by the caller
  /** Test hooks: @klayr/p2p's populator (10 s) and seed re-discovery (30 s) intervals, shorter in tests. */
  readonly populatorIntervalMs?: number;
  readonly fallbackSeedDiscoveryIntervalMs?: number;
  /** WebSocket messages per second a peer may send before penalties (@klayr/p2p's wsMaxMessageRate, default 100). */
  readonly wsMaxMessageRate?: number;
}

/** An inbound request: answer exactly once with end() or error(). */
export interface IncomingRequest {
  readonly procedure: string;
  readonly data: Buffer | undefined; // decoded from the wire's base64; undefined when the peer sent none
  readonly peerId: string;
  readonly rate: number; // calls of this procedure by this peer per second (as @klayr/p2p's P2PRequest.rate)
  end(data?: Buffer): void;
  error(error: Error): void;
}

export interface IncomingMessage {
  readonly event: string;
  readonly data: Buffer | undefined;
  readonly peerId: string;
  readonly rate: number;
}

export interface ResponsePacket {
  readonly peerId: string;
  readonly data: Buffer | undefined;
}

/** Events a P2P emits (names are Kestrel's own; @klayr/p2p's equivalents in brackets). */
export interface P2PEvents {
  requestReceived: [IncomingRequest]; // [EVENT_REQUEST_RECEIVED] only for procedures the P2P layer does not answer itself
  messageReceived: [IncomingMessage]; // [EVENT_MESSAGE_RECEIVED] only for events the P2P layer does not handle itself
  peerConnected: [PeerInfo, 'inbound' | 'outbound'];
  peerClosed: [PeerInfo, 'inbound' | 'outbound', number, string]; // code, reason
  peerBanned: [string]; // peerId
  peerInfoUpdated: [PeerInfo]; // after a postNodeInfo / getNodeInfo
  networkReady: [];
}

export interface P2PNode extends EventEmitter<P2PEvents> {
  start(): Promise<void>; // binds hostIp:port exclusively (a port in use rejects), dials seeds/fixed/previous peers
  stop(): Promise<void>; // closes every socket and the server, clears every timer
  /** Between a start and a stop (stop() refuses otherwise, as @klayr/p2p's does). */
  readonly isActive: boolean;
  readonly nodeInfo: NodeInfo;
  applyNodeInfo(nodeInfo: Omit<NodeInfo, 'nonce'>): void; // and postNodeInfo to every connected peer
  applyPenalty(penalty: { readonly peerId: string; readonly penalty: number }): void;
  request(procedure: string, data?: Buffer): Promise<ResponsePacket>; // a peer chosen as @klayr/p2p chooses
  requestFromPeer(procedure: string, data: Buffer | undefined, peerId: string): Promise<ResponsePacket>;
  send(event: string, data?: Buffer): void; // to a selection of peers as @klayr/p2p's send
  sendToPeer(event: string, data: Buffer | undefined, peerId: string): void;
  broadcast(event: string, data?: Buffer): void; // to every connected peer
  getConnectedPeers(): readonly PeerInfo[];
  getDisconnectedPeers(): readonly PeerInfo[];
  getTriedPeers(): readonly PeerAddress[];
  getNetworkStats(): NetworkStats;
}

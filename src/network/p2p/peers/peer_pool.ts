// The connected peers (peer_pool.js): inbound and outbound limits and eviction, dialling, the node info pushed to
// every peer, and the choice of peers for requests and sends.
import {
  CLIENT_ACK_TIMEOUT_MS,
  CLIENT_CONNECT_TIMEOUT_MS,
  EVENT_POST_NODE_INFO,
  EVICTED_PEER_CODE,
  INTENTIONAL_DISCONNECT_CODE,
  LOCALHOST_IP,
  SEED_PEER_DISCONNECTION_REASON,
  SEND_PEER_LIMIT,
} from '../constants.js';
import { RequestFailError, SendFailError } from '../errors.js';
import { encodeNodeInfo } from '../node_info.js';
import { handshakeQuery } from '../transport/handshake.js';
import { openOutboundSocket } from '../transport/outbound.js';
import type { ScSocket } from '../transport/sc_socket.js';
import type { NodeInfo, ResponsePacket } from '../types.js';
import { netgroup } from './buckets.js';
import { pickInboundToEvict, pickOutboundToEvict } from './eviction.js';
import type { KnownPeer, SharedState } from './known_peer.js';
import { type ConnectionKind, Peer, type PeerHandlers } from './peer.js';
import type { PeerBook } from './peer_book.js';
import { selectPeersForConnection, selectPeersForRequest, selectPeersForSend } from './select.js';

export class DuplicateConnectionError extends Error {
  override readonly name = 'DuplicateConnectionError';
}

export interface PeerPoolOptions {
  readonly book: PeerBook;
  readonly secret: number;
  readonly hostPort: number;
  readonly maxInboundConnections: number;
  readonly maxOutboundConnections: number;
  readonly wsMaxPayload: number;
  readonly maxPeerInfoSize: number;
  readonly wsMaxMessageRate?: number;
  readonly nodeInfo: () => NodeInfo;
  readonly handlers: PeerHandlers;
  /** An outbound socket finished its SocketCluster handshake (the caller then fetches node info and peers). */
  readonly onOutboundOpen: (peer: Peer) => void;
  /** A dial failed before the handshake completed. */
  readonly onOutboundAbort: (peer: Peer) => void;
}

export class PeerPool {
  readonly #peers = new Map<string, Peer>();

  constructor(readonly options: PeerPoolOptions) {}

  get(peerId: string): Peer | undefined {
    return this.#peers.get(peerId);
  }

  has(peerId: string): boolean {
    return this.#peers.has(peerId);
  }

  /** Every peer in the pool, connected or still dialling. */
  all(kind?: ConnectionKind): Peer[] {
    const peers = [...this.#peers.values()];
    return kind === undefined ? peers : peers.filter((p) => p.kind === kind);
  }

  connected(kind?: ConnectionKind): Peer[] {
    return this.all(kind).filter((p) => p.isOpen);
  }

  counts(): { inboundCount: number; outboundCount: number } {
    return { inboundCount: this.all('inbound').length, outboundCount: this.all('outbound').length };
  }

  /** Outbound slots left, keeping one for each fixed peer not in the pool. */
  freeOutboundSlots(): number {
    const missingFixed = this.options.book.fixedPeers.filter((p) => !this.#peers.has(p.peerId)).length;
    return this.options.maxOutboundConnections - missingFixed - this.counts().outboundCount;
  }

  #newPeer(known: KnownPeer, kind: ConnectionKind, sharedState?: SharedState): Peer {
    const peer = new Peer({
      peerId: known.peerId,
      ipAddress: known.ipAddress,
      port: known.port,
      kind,
      peerKind: known.peerKind ?? 'none',
      netgroup: netgroup(known.ipAddress, this.options.secret),
      sharedState,
      maxPeerInfoSize: this.options.maxPeerInfoSize,
      wsMaxMessageRate: this.options.wsMaxMessageRate,
      handlers: this.options.handlers,
    });
    if (known.reputation !== undefined) peer.reputation = known.reputation;
    return peer;
  }

  /** A peer whose handshake the server accepted; a second connection of the same peer id is refused. */
  addInbound(known: KnownPeer, sharedState: SharedState, socket: ScSocket): Peer {
    if (this.#peers.has(known.peerId))
      throw new DuplicateConnectionError(`Peer ${known.peerId} was already in the peer pool`);
    if (this.all('inbound').length >= this.options.maxInboundConnections) this.evict('inbound');
    const peer = this.#newPeer(known, 'inbound', sharedState);
    this.#peers.set(peer.peerId, peer);
    peer.attach(socket);
    this.#pushNodeInfo(peer);
    return peer;
  }

  /** Dials a peer unless it is in the pool, its IP is banned, or another outbound peer has its IP (but 127.0.0.1). */
  addOutbound(known: KnownPeer): boolean {
    const { book } = this.options;
    if (this.#peers.has(known.peerId) || book.isBannedIP(known.ipAddress)) return false;
    if (this.all('outbound').some((p) => p.ipAddress === known.ipAddress && p.ipAddress !== LOCALHOST_IP)) return false;
    const peer = this.#newPeer(known, 'outbound', known.sharedState);
    this.#peers.set(peer.peerId, peer);
    const { socket, ready } = openOutboundSocket({
      ipAddress: known.ipAddress,
      port: known.port,
      query: handshakeQuery(this.options.nodeInfo(), this.options.hostPort),
      maxPayload: this.options.wsMaxPayload,
      connectTimeoutMs: CLIENT_CONNECT_TIMEOUT_MS,
      ackTimeoutMs: CLIENT_ACK_TIMEOUT_MS,
    });
    peer.attach(socket, ready);
    ready.then(
      () => {
        this.#pushNodeInfo(peer);
        this.options.onOutboundOpen(peer);
      },
      () => this.options.onOutboundAbort(peer),
    );
    return true;
  }

  /** Disconnects and forgets a peer (its close is reported once, through the handlers). */
  remove(peerId: string, code = INTENTIONAL_DISCONNECT_CODE, reason?: string): boolean {
    const peer = this.#peers.get(peerId);
    if (peer === undefined) return false;
    this.#peers.delete(peerId);
    peer.disconnect(code, reason);
    return true;
  }

  /** Forgets a peer whose socket closed by itself. */
  forget(peer: Peer): void {
    if (this.#peers.get(peer.peerId) === peer) this.#peers.delete(peer.peerId);
  }

  removeAll(): void {
    for (const peer of [...this.#peers.values()])
      this.remove(peer.peerId, INTENTIONAL_DISCONNECT_CODE, `Intentionally removed peer ${peer.peerId}`);
  }

  evict(kind: ConnectionKind): void {
    const victim =
      kind === 'outbound' ? pickOutboundToEvict(this.all('outbound')) : pickInboundToEvict(this.all('inbound'));
    if (victim !== undefined) this.remove(victim.peerId, EVICTED_PEER_CODE, `Evicted ${kind} peer ${victim.peerId}`);
  }

  /** postNodeInfo with the current node info to every peer in the pool. */
  pushNodeInfoToAll(): void {
    const encoded = this.#encodedNodeInfo();
    for (const peer of this.#peers.values()) this.#pushNodeInfo(peer, encoded);
  }

  /** The node info as postNodeInfo carries it; over the peer info size limit it is not sent (applyNodeInfo throws). */
  #encodedNodeInfo(): Buffer {
    const encoded = encodeNodeInfo(this.options.nodeInfo());
    if (encoded.length > this.options.maxPeerInfoSize)
      throw new Error(`Invalid NodeInfo was larger than the maximum allowed ${this.options.maxPeerInfoSize} bytes`);
    return encoded;
  }

  #pushNodeInfo(peer: Peer, encoded?: Buffer): void {
    try {
      peer.send(EVENT_POST_NODE_INFO, encoded ?? this.#encodedNodeInfo());
    } catch {
      // a peer that is gone (or a node info too large to send) gets nothing
    }
  }

  /** One random peer, outbound ones first (as selectPeersForRequest over the outbound peers, else all). */
  async request(procedure: string, data?: Buffer): Promise<ResponsePacket> {
    const outbound = this.connected('outbound');
    const candidates = outbound.length === 0 ? this.connected() : outbound;
    const [peer] = selectPeersForRequest(candidates, 1);
    if (peer === undefined) throw new RequestFailError('Request failed due to no peers found in peer selection');
    return this.requestFromPeer(procedure, data, peer.peerId);
  }

  async requestFromPeer(procedure: string, data: Buffer | undefined, peerId: string): Promise<ResponsePacket> {
    const peer = this.#peers.get(peerId);
    if (peer === undefined)
      throw new RequestFailError(`Request failed because a peer with id ${peerId} could not be found`);
    return peer.request(procedure, data);
  }

  sendToPeer(event: string, data: Buffer | undefined, peerId: string): void {
    const peer = this.#peers.get(peerId);
    if (peer === undefined) throw new SendFailError(`Send failed because a peer with id ${peerId} could not be found`);
    peer.send(event, data);
  }

  /** To up to 16 peers chosen as selectPeersForSend; a failing peer is skipped. Returns how many got it. */
  send(event: string, data?: Buffer): number {
    const selected = selectPeersForSend(
      this.all().map((p) => ({
        peerId: p.peerId,
        ipAddress: p.ipAddress,
        connectionKind: p.kind,
        peerKind: p.peerKind,
        reputation: p.reputation,
      })),
      SEND_PEER_LIMIT,
    );
    return this.#sendEach(
      event,
      data,
      selected.map((p) => p.peerId),
    );
  }

  broadcast(event: string, data?: Buffer): number {
    return this.#sendEach(event, data, [...this.#peers.keys()]);
  }

  #sendEach(event: string, data: Buffer | undefined, peerIds: readonly string[]): number {
    let sent = 0;
    for (const peerId of peerIds) {
      try {
        this.sendToPeer(event, data, peerId);
        sent += 1;
      } catch {
        // as @klayr/p2p: a failed send to one peer is only counted as an error
      }
    }
    return sent;
  }

  /** The populator's step: dial new and tried peers for the free slots, and every fixed peer not connected. */
  triggerNewConnections(newPeers: readonly KnownPeer[], triedPeers: readonly KnownPeer[]): void {
    const notInPool = (p: KnownPeer): boolean => !this.#peers.has(p.peerId);
    const missingFixed = this.options.book.fixedPeers.filter(notInPool);
    const peerLimit = this.freeOutboundSlots();
    if (peerLimit === 0) this.disconnectFromSeedPeers();
    const selected = selectPeersForConnection({
      newPeers: newPeers.filter(notInPool),
      triedPeers: triedPeers.filter(notInPool),
      peerLimit,
    });
    for (const peer of [...selected, ...missingFixed]) this.addOutbound(peer);
  }

  disconnectFromSeedPeers(): void {
    const { book } = this.options;
    for (const peer of this.all('outbound')) {
      const isFixed = book.fixedPeers.some((p) => p.peerId === peer.peerId);
      const isSeed = book.seedPeers.some((p) => p.peerId === peer.peerId);
      if (isSeed && !isFixed) this.remove(peer.peerId, INTENTIONAL_DISCONNECT_CODE, SEED_PEER_DISCONNECTION_REASON);
    }
  }
}

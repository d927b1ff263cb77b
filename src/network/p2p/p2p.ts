// Kestrel's P2P node, a peer of Klayr Core nodes (@klayr/p2p 0.10.1's P2P): the server and the dials, the peer
// book and the populator, the protocol procedures it answers itself (getNodeInfo, getPeers, ping) and postNodeInfo;
// everything else goes to the protocol layer as requestReceived / messageReceived.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage as HttpRequest } from 'node:http';
import { isIPv4 } from 'node:net';
import {
  BAN_TIME_MS,
  closeReason,
  DEFAULT_HOST_IP,
  DUPLICATE_CONNECTION,
  DUPLICATE_CONNECTION_REASON,
  FALLBACK_SEED_DISCOVERY_INTERVAL_MS,
  INCOMPATIBLE_PEER_CODE,
  INCOMPATIBLE_PEER_UNKNOWN_REASON,
  INVALID_CONNECTION_ADDRESS_CODE,
  INVALID_CONNECTION_ADDRESS_REASON,
  MAX_PEER_DISCOVERY_RESPONSE_LENGTH,
  MAX_PEER_INFO_SIZE,
  MIN_PEER_DISCOVERY_THRESHOLD,
  MIN_TRIED_PEER_COUNT,
  NONCE_LENGTH_BYTES,
  OUTBOUND_SHUFFLE_INTERVAL_MS,
  POPULATOR_INTERVAL_MS,
  RPC_GET_NODE_INFO,
  RPC_GET_PEERS,
} from './constants.js';
import { fetchNodeInfo, fetchPeers } from './discovery.js';
import { type NetworkStatsCounters, newNetworkStats } from './network_stats.js';
import { encodedPeerInfo, encodeNodeInfo, encodePeerListFromEncoded } from './node_info.js';
import { netgroup } from './peers/buckets.js';
import type { KnownPeer } from './peers/known_peer.js';
import type { Peer, PeerHandlers } from './peers/peer.js';
import { PeerBook } from './peers/peer_book.js';
import { DuplicateConnectionError, PeerPool } from './peers/peer_pool.js';
import { sanitizePeerLists } from './peers/sanitize.js';
import { checkInboundHandshake } from './transport/handshake.js';
import { remoteIP } from './transport/remote_ip.js';
import type { ScSocket } from './transport/sc_socket.js';
import { PeerServer } from './transport/server.js';
import type {
  IncomingRequest,
  NetworkStats,
  NodeInfo,
  P2PConfig,
  P2PEvents,
  P2PNode,
  PeerAddress,
  PeerInfo,
  ResponsePacket,
} from './types.js';

const isEmptyData = (data: Buffer | undefined): boolean => data === undefined || data.length === 0;

export class P2P extends EventEmitter<P2PEvents> implements P2PNode {
  #nodeInfo: NodeInfo;
  readonly #config: P2PConfig;
  readonly #hostIp: string;
  readonly #book: PeerBook;
  readonly #pool: PeerPool;
  readonly #stats: NetworkStatsCounters = newNetworkStats();
  #server?: PeerServer;
  #active = false;
  #hasConnected = false;
  #populatorTimer?: NodeJS.Timeout;
  #shuffleTimer?: NodeJS.Timeout;
  #nextSeedDiscovery: number;

  constructor(config: P2PConfig) {
    super();
    this.#config = config;
    this.#hostIp = config.hostIp === '' ? DEFAULT_HOST_IP : config.hostIp;
    this.#nodeInfo = { ...config.nodeInfo, nonce: randomBytes(NONCE_LENGTH_BYTES).toString('hex') };
    const lists = sanitizePeerLists(
      {
        blacklistedIPs: config.blacklistedIPs,
        seedPeers: config.seedPeers,
        fixedPeers: config.fixedPeers,
        whitelisted: config.whitelistedPeers,
        previousPeers: config.previousPeers,
      },
      this.#hostIp,
    );
    this.#book = new PeerBook({ lists, secret: config.secret });
    this.#pool = new PeerPool({
      book: this.#book,
      secret: config.secret,
      hostPort: config.port,
      maxInboundConnections: config.maxInboundConnections,
      maxOutboundConnections: config.maxOutboundConnections,
      wsMaxPayload: config.wsMaxPayload,
      maxPeerInfoSize: MAX_PEER_INFO_SIZE,
      wsMaxMessageRate: config.wsMaxMessageRate,
      nodeInfo: () => this.#nodeInfo,
      handlers: this.#peerHandlers(),
      onOutboundOpen: (peer) => {
        this.#collectPeerDetails(peer).catch(() => {
          this.#stats.totalErrors += 1;
        });
      },
      onOutboundAbort: (peer) => {
        if (this.#book.hasPeer(peer.peerId)) this.#book.downgradePeer(peer.toKnownPeer());
      },
    });
    this.#nextSeedDiscovery = Date.now() + this.#seedDiscoveryInterval;
  }

  get nodeInfo(): NodeInfo {
    return this.#nodeInfo;
  }

  get isActive(): boolean {
    return this.#active;
  }

  get #seedDiscoveryInterval(): number {
    return this.#config.fallbackSeedDiscoveryIntervalMs ?? FALLBACK_SEED_DISCOVERY_INTERVAL_MS;
  }

  async start(): Promise<void> {
    if (this.#active) throw new Error('Node cannot start because it is already active.');
    if (this.#config.maxInboundConnections !== 0) {
      const server = new PeerServer({
        hostIp: this.#hostIp,
        port: this.#config.port,
        maxPayload: this.#config.wsMaxPayload,
        hooks: {
          isBanned: (ip) => this.#book.isBannedIP(ip),
          onViolation: (peerId) => {
            this.#stats.totalErrors += 1;
            this.#ban(peerId);
          },
          onHandshake: (socket, request) => this.#acceptInbound(socket, request),
        },
      });
      await server.start();
      this.#server = server;
    }
    this.#active = true;
    if (this.#book.triedPeers.length < MIN_TRIED_PEER_COUNT) {
      this.#discoverFromSeedPeers();
      this.#nextSeedDiscovery = Date.now() + this.#seedDiscoveryInterval;
    }
    this.#populatorTimer = setInterval(
      () => this.#populate(),
      this.#config.populatorIntervalMs ?? POPULATOR_INTERVAL_MS,
    );
    this.#shuffleTimer = setInterval(() => this.#pool.evict('outbound'), OUTBOUND_SHUFFLE_INTERVAL_MS);
    this.#pool.triggerNewConnections(this.#book.newPeers, this.#book.triedPeers);
  }

  async stop(): Promise<void> {
    if (!this.#active) throw new Error('Node cannot be stopped because it is not active.');
    this.#active = false;
    this.#hasConnected = false;
    clearInterval(this.#populatorTimer);
    clearInterval(this.#shuffleTimer);
    this.#pool.removeAll();
    this.#book.cleanUpTimers();
    await this.#server?.stop();
    this.#server = undefined;
  }

  /** Replaces the node info (keeping the nonce) and posts it to every peer; throws when it is over 20,480 bytes. */
  applyNodeInfo(nodeInfo: Omit<NodeInfo, 'nonce'>): void {
    this.#nodeInfo = { ...nodeInfo, nonce: this.#nodeInfo.nonce };
    this.#pool.pushNodeInfoToAll();
  }

  applyPenalty(penalty: { readonly peerId: string; readonly penalty: number }): void {
    if (this.#book.isTrustedPeer(penalty.peerId)) return;
    const peer = this.#pool.get(penalty.peerId);
    if (peer === undefined) throw new Error(`Peer not found: ${penalty.peerId}`);
    peer.applyPenalty(penalty.penalty);
  }

  request(procedure: string, data?: Buffer): Promise<ResponsePacket> {
    return this.#pool.request(procedure, data);
  }

  requestFromPeer(procedure: string, data: Buffer | undefined, peerId: string): Promise<ResponsePacket> {
    return this.#pool.requestFromPeer(procedure, data, peerId);
  }

  send(event: string, data?: Buffer): void {
    this.#pool.send(event, data);
  }

  sendToPeer(event: string, data: Buffer | undefined, peerId: string): void {
    this.#pool.sendToPeer(event, data, peerId);
  }

  broadcast(event: string, data?: Buffer): void {
    this.#pool.broadcast(event, data);
  }

  /** Connected peers that agreed to be advertised. */
  getConnectedPeers(): readonly PeerInfo[] {
    return this.#pool
      .connected()
      .filter((p) => p.advertiseAddress)
      .map((p) => p.toPeerInfo());
  }

  /** Peers of the peer book that are not connected (and agreed to be advertised). */
  getDisconnectedPeers(): readonly PeerInfo[] {
    const connected = new Set(this.getConnectedPeers().map((p) => p.peerId));
    return this.#book.allPeers
      .filter((p) => !connected.has(p.peerId) && p.advertiseAddress !== false)
      .map((p) => knownPeerInfo(p));
  }

  getTriedPeers(): readonly PeerAddress[] {
    return this.#book.triedPeers.map((p) => ({ ipAddress: p.ipAddress, port: p.port }));
  }

  getNetworkStats(): NetworkStats {
    const { inboundCount, outboundCount } = this.#pool.counts();
    this.#stats.incoming.count = inboundCount;
    this.#stats.outgoing.count = outboundCount;
    this.#stats.totalDisconnectedPeers = this.getDisconnectedPeers().length;
    this.#stats.totalConnectedPeers = this.getConnectedPeers().length;
    return structuredClone(this.#stats);
  }

  /** Emits to the protocol layer; a listener that throws never reaches a socket or a timer of the P2P layer. */
  #notify<K extends keyof P2PEvents>(event: K, ...args: P2PEvents[K]): void {
    try {
      (this.emit as (event: K, ...args: P2PEvents[K]) => boolean)(event, ...args);
    } catch {
      this.#stats.totalErrors += 1;
    }
  }

  /** The peer book, for tests and the network endpoints. */
  get peerBook(): PeerBook {
    return this.#book;
  }

  #peerHandlers(): PeerHandlers {
    return {
      onRequest: (peer, request) => this.#onRequest(peer, request),
      onMessage: (_peer, message) => {
        this.#stats.totalMessagesReceived[message.event] = (this.#stats.totalMessagesReceived[message.event] ?? 0) + 1;
        this.#notify('messageReceived', message);
      },
      onNodeInfo: (peer) => {
        const known = peer.toKnownPeer();
        if (!this.#book.hasPeer(known.peerId)) this.#book.addPeer(known);
        if (this.#book.updatePeer(known)) {
          this.#book.upgradePeer(known);
          this.#notify('peerInfoUpdated', peer.toPeerInfo());
        }
      },
      onBan: (peer) => this.#ban(peer.peerId),
      onClose: (peer, code, reason) => this.#onPeerClose(peer, code, reason),
    };
  }

  #onRequest(peer: Peer, request: IncomingRequest): void {
    const { procedure } = request;
    this.#stats.totalRequestsReceived[procedure] = (this.#stats.totalRequestsReceived[procedure] ?? 0) + 1;
    if (procedure === RPC_GET_NODE_INFO || procedure === RPC_GET_PEERS) {
      if (!isEmptyData(request.data)) {
        this.applyPenalty({ peerId: peer.peerId, penalty: 100 });
        request.error(new Error('Invalid request.'));
        return;
      }
      request.end(procedure === RPC_GET_NODE_INFO ? encodeNodeInfo(this.#nodeInfo) : this.#peerListAnswer());
      return;
    }
    this.#notify('requestReceived', request);
  }

  /** A random quarter to half of the peer book (at least 100 peers), those that may be advertised (getPeers). */
  #peerListAnswer(): Buffer {
    const peers = this.#book
      .randomizedPeerList(MIN_PEER_DISCOVERY_THRESHOLD, MAX_PEER_DISCOVERY_RESPONSE_LENGTH)
      .filter((p) => p.advertiseAddress !== false);
    return encodePeerListFromEncoded(peers.map((p) => encodedPeerInfo(p)));
  }

  #acceptInbound(socket: ScSocket, request: HttpRequest): boolean {
    const ip = remoteIP(request.socket);
    const check = checkInboundHandshake(request.url, ip, {
      nodeInfo: this.#nodeInfo,
      port: this.#config.port,
      maxPeerInfoSize: MAX_PEER_INFO_SIZE,
      netgroup: isIPv4(ip) ? netgroup(ip, this.#config.secret) : 0,
    });
    if (!check.ok) {
      socket.disconnect(check.code, check.reason);
      if (check.selfPort !== undefined) this.#book.removePeer(`${ip}:${check.selfPort}`);
      this.#stats.totalErrors += 1;
      return false;
    }
    if (!isIPv4(ip)) {
      socket.disconnect(INVALID_CONNECTION_ADDRESS_CODE, INVALID_CONNECTION_ADDRESS_REASON);
      return false;
    }
    const { peer: candidate } = check;
    const inBook = this.#book.getPeer(candidate.peerId);
    const known: KnownPeer = { ...inBook, peerId: candidate.peerId, ipAddress: ip, port: candidate.port };
    const shared = {
      chainID: candidate.chainID,
      networkVersion: candidate.networkVersion,
      nonce: candidate.nonce,
      advertiseAddress: candidate.advertiseAddress,
      options: inBook?.sharedState?.options,
    };
    let peer: Peer;
    try {
      peer = this.#pool.addInbound(known, shared, socket);
    } catch (error) {
      this.#stats.totalErrors += 1;
      if (error instanceof DuplicateConnectionError)
        socket.disconnect(DUPLICATE_CONNECTION, DUPLICATE_CONNECTION_REASON);
      else socket.disconnect(INCOMPATIBLE_PEER_CODE, INCOMPATIBLE_PEER_UNKNOWN_REASON);
      return false;
    }
    if (!this.#book.hasPeer(peer.peerId)) this.#book.addPeer({ ...peer.toKnownPeer(), sourceAddress: ip });
    this.#stats.incoming.connects += 1;
    this.#notify('peerConnected', peer.toPeerInfo(), 'inbound');
    return true;
  }

  /** After an outbound handshake: getNodeInfo, then getPeers, then the peer counts as connected. */
  async #collectPeerDetails(peer: Peer): Promise<void> {
    try {
      peer.updateNodeInfo(await fetchNodeInfo(peer, this.#nodeInfo, MAX_PEER_INFO_SIZE));
    } catch {
      this.#stats.totalErrors += 1;
      return;
    }
    try {
      this.#addDiscovered(await fetchPeers(peer, MAX_PEER_DISCOVERY_RESPONSE_LENGTH));
    } catch {
      this.#stats.totalErrors += 1;
    }
    if (!peer.isOpen) return;
    this.#stats.outgoing.connects += 1;
    const known = peer.toKnownPeer();
    if (!this.#book.hasPeer(known.peerId)) this.#book.addPeer(known);
    this.#book.upgradePeer(known);
    this.#notify('peerConnected', peer.toPeerInfo(), 'outbound');
    if (!this.#hasConnected && this.#pool.connected().length > 0) {
      this.#hasConnected = true;
      this.#notify('networkReady');
    }
  }

  #addDiscovered(peers: readonly KnownPeer[]): void {
    for (const peer of peers) {
      if (this.#book.hasPeer(peer.peerId)) continue;
      if (this.#book.addPeer(peer)) this.#stats.totalPeersDiscovered += 1;
    }
  }

  #onPeerClose(peer: Peer, code: number, reason: string | undefined): void {
    this.#pool.forget(peer);
    this.#stats.totalRemovedPeers += 1;
    if (peer.kind === 'outbound') this.#stats.outgoing.disconnects += 1;
    else this.#stats.incoming.disconnects += 1;
    const inBook = this.#book.getPeer(peer.peerId);
    // a connection that closed before the handshake's node info (a redial that failed) keeps what the book last
    // learnt of the peer: getDisconnectedPeers answers it, as @klayr/p2p does
    if (inBook !== undefined)
      this.#book.updatePeer({
        ...peer.toKnownPeer(),
        sharedState: peer.sharedState ?? inBook.sharedState,
        reputation: peer.reputation,
      });
    this.#notify('peerClosed', peer.toPeerInfo(), peer.kind, code, closeReason(code, reason));
  }

  /** Reputation at 0 or a broken protocol rule: drop the peer, ban its IP for 24 h (not fixed/whitelisted). */
  #ban(peerId: string): void {
    if (this.#pool.has(peerId)) this.#pool.remove(peerId);
    this.#book.addBannedPeer(peerId, BAN_TIME_MS);
    this.#stats.banning.count += 1;
    const entry = this.#stats.banning.bannedPeers[peerId];
    if (entry === undefined) this.#stats.banning.bannedPeers[peerId] = { banCount: 1, lastBanTime: Date.now() };
    else {
      entry.banCount += 1;
      entry.lastBanTime = Date.now();
    }
    this.#notify('peerBanned', peerId);
  }

  #discoverFromSeedPeers(): void {
    const free = this.#pool.freeOutboundSlots();
    if (free <= 0 || this.#book.seedPeers.length === 0) return;
    for (const seed of this.#book.seedPeers) {
      const connected = this.#pool.get(seed.peerId);
      if (connected?.isOpen === true)
        fetchPeers(connected, MAX_PEER_DISCOVERY_RESPONSE_LENGTH).then(
          (peers) => this.#addDiscovered(peers),
          () => undefined,
        );
    }
    for (const seed of this.#book.seedPeers.slice(0, free)) this.#pool.addOutbound(seed);
  }

  #populate(): void {
    try {
      this.#pool.triggerNewConnections(this.#book.newPeers, this.#book.triedPeers);
      if (this.#nextSeedDiscovery < Date.now() && this.#pool.freeOutboundSlots() > 0) {
        this.#discoverFromSeedPeers();
        this.#nextSeedDiscovery = Date.now() + this.#seedDiscoveryInterval;
      }
    } catch {
      this.#stats.totalErrors += 1;
    }
  }
}

const knownPeerInfo = (p: KnownPeer): PeerInfo => ({
  peerId: p.peerId,
  ipAddress: p.ipAddress,
  port: p.port,
  ...(p.sharedState?.options === undefined
    ? {}
    : { sharedState: { ...p.sharedState, options: p.sharedState.options } }),
  internalState: {
    reputation: p.reputation ?? 100,
    connectionKind: 'none',
    peerKind: p.peerKind ?? 'none',
    advertiseAddress: p.advertiseAddress ?? true,
  },
});

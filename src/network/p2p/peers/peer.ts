// One connected (or connecting) peer, inbound or outbound, as @klayr/p2p's peer/base.js, inbound.js and
// outbound.js handle it: requests and messages in and out (base64 payloads), the discovery counters and their
// penalties, the message-rate penalty, postNodeInfo, pings to inbound peers, reputation and the ban at <= 0.
import {
  EVENT_POST_NODE_INFO,
  INVALID_PEER_INFO_PENALTY,
  MAX_PEER_INFO_SIZE,
  PEER_STATUS_MESSAGE_RATE,
  PEER_STATUS_MESSAGE_RATE_INTERVAL_MS,
  PING_INTERVAL_MAX_MS,
  PING_INTERVAL_MIN_MS,
  PRODUCTIVITY_RESET_INTERVAL_MS,
  RATE_CALCULATION_INTERVAL_MS,
  RATE_LIMITED_PROTOCOL_PROCEDURES,
  REPUTATION_SCORE,
  RPC_GET_NODE_INFO,
  RPC_GET_PEERS,
  RPC_PING,
  RPC_PONG,
  SC_EVENT_MESSAGE,
  SC_EVENT_RPC_REQUEST,
  WS_MAX_MESSAGE_RATE,
  WS_MAX_MESSAGE_RATE_PENALTY,
} from '../constants.js';
import { InvalidPeerDataError, RequestFailError, SendFailError } from '../errors.js';
import { decodeNodeInfo } from '../node_info.js';
import { isProtocolMessage, isRpcRequest } from '../transport/sc_packet.js';
import type { Respond, ScSocket } from '../transport/sc_socket.js';
import type { IncomingMessage, IncomingRequest, PeerInfo, ResponsePacket } from '../types.js';
import type { KnownPeer, PeerKind, SharedState } from './known_peer.js';
import { PeerCounters } from './peer_counters.js';

export type ConnectionKind = 'inbound' | 'outbound';

/** What the pool does with what a peer says and does. */
export interface PeerHandlers {
  onRequest(peer: Peer, request: IncomingRequest): void;
  onMessage(peer: Peer, message: IncomingMessage): void;
  /** The peer's node info changed (postNodeInfo, or the getNodeInfo answer of an outbound peer). */
  onNodeInfo(peer: Peer): void;
  /** Reputation reached 0: the pool removes the peer and bans its IP. */
  onBan(peer: Peer): void;
  onClose(peer: Peer, code: number, reason: string | undefined): void;
}

export interface PeerOptions {
  readonly peerId: string;
  readonly ipAddress: string;
  readonly port: number;
  readonly kind: ConnectionKind;
  readonly peerKind: PeerKind;
  readonly netgroup: number;
  readonly sharedState?: SharedState;
  readonly rateIntervalMs?: number;
  readonly maxPeerInfoSize?: number;
  readonly wsMaxMessageRate?: number;
  readonly handlers: PeerHandlers;
}

const toBase64 = (data: Buffer | undefined): string | undefined =>
  data === undefined ? undefined : data.toString('base64');
const fromBase64 = (data: unknown): Buffer | undefined =>
  typeof data === 'string' ? Buffer.from(data, 'base64') : undefined;

/** `'pong'` as @klayr/p2p's P2PRequest.end encodes a non-Buffer: base64 of its JSON. */
const PONG_DATA = Buffer.from(JSON.stringify(RPC_PONG), 'utf8').toString('base64');

export class Peer {
  readonly peerId: string;
  readonly ipAddress: string;
  readonly port: number;
  readonly kind: ConnectionKind;
  readonly netgroup: number;
  readonly connectTime = Date.now();
  peerKind: PeerKind;
  sharedState?: SharedState;
  reputation = REPUTATION_SCORE;
  latency = 0;
  readonly counters = new PeerCounters();
  #socket?: ScSocket;
  /** An outbound socket's handshake; what is sent before it completes waits for it (socketcluster-client buffers). */
  #opened?: Promise<void>;
  #timers: NodeJS.Timeout[] = [];
  #pingTimer?: NodeJS.Timeout;
  #closed = false;
  readonly #handlers: PeerHandlers;
  readonly #rateIntervalMs: number;
  readonly #maxPeerInfoSize: number;
  readonly #wsMaxMessageRate: number;

  constructor(options: PeerOptions) {
    this.peerId = options.peerId;
    this.ipAddress = options.ipAddress;
    this.port = options.port;
    this.kind = options.kind;
    this.peerKind = options.peerKind;
    this.netgroup = options.netgroup;
    this.sharedState = options.sharedState;
    this.#handlers = options.handlers;
    this.#rateIntervalMs = options.rateIntervalMs ?? RATE_CALCULATION_INTERVAL_MS;
    this.#maxPeerInfoSize = options.maxPeerInfoSize ?? MAX_PEER_INFO_SIZE;
    this.#wsMaxMessageRate = options.wsMaxMessageRate ?? WS_MAX_MESSAGE_RATE;
    this.#timers = [
      setInterval(() => this.#closeRateWindow(), this.#rateIntervalMs),
      setInterval(
        () => this.counters.resetProductivity(Date.now(), PRODUCTIVITY_RESET_INTERVAL_MS),
        PRODUCTIVITY_RESET_INTERVAL_MS,
      ),
      setInterval(() => this.counters.resetStatusCounters(), PEER_STATUS_MESSAGE_RATE_INTERVAL_MS),
    ];
  }

  get isOpen(): boolean {
    return this.#socket !== undefined && this.#socket.state === 'open' && !this.#closed;
  }

  get advertiseAddress(): boolean {
    return this.sharedState?.advertiseAddress ?? true;
  }

  /** Binds the peer's socket: inbound at once, outbound as soon as the dial created it (with its handshake). */
  attach(socket: ScSocket, opened?: Promise<void>): void {
    this.#socket = socket;
    this.#opened = opened;
    socket.on('frame', () => {
      this.counters.wsMessageCount += 1;
    });
    socket.on('event', (name, data, respond) => {
      try {
        if (name === SC_EVENT_RPC_REQUEST) this.#onRawRequest(data, respond);
        else if (name === SC_EVENT_MESSAGE) this.#onRawMessage(data);
      } catch {
        // a handler's failure never takes the socket or the node down
      }
    });
    socket.on('controlFrame', () => {
      // inbound ping/pong frames are the server's (ban); on an outbound socket: terminate and penalty 100
      if (this.kind === 'outbound') {
        socket.terminate();
        this.applyPenalty(100);
      }
    });
    socket.once('close', (code, reason) => this.#onClose(code, reason));
    if (this.kind === 'inbound') this.#schedulePing();
  }

  /** Sends `remote-message {event, data: base64}`. */
  send(event: string, data?: Buffer): void {
    const socket = this.#socket;
    if (socket === undefined || this.#closed) throw new SendFailError(`Peer ${this.peerId} is not connected`);
    const payload = data === undefined ? { event } : { event, data: toBase64(data) };
    if (socket.state === 'connecting' && this.#opened !== undefined) {
      this.#opened.then(
        () => socket.emitEvent(SC_EVENT_MESSAGE, payload),
        () => undefined,
      );
      return;
    }
    socket.emitEvent(SC_EVENT_MESSAGE, payload);
  }

  /** Sends `rpc-request {procedure, data: base64}` and waits for `{data: base64, peerId}`. */
  async request(procedure: string, data?: Buffer): Promise<ResponsePacket> {
    const socket = this.#socket;
    if (socket === undefined || this.#closed) throw new RequestFailError(`Peer ${this.peerId} is not connected`);
    const payload = data === undefined ? { procedure } : { procedure, data: toBase64(data) };
    if (socket.state === 'connecting' && this.#opened !== undefined) {
      try {
        await this.#opened;
      } catch (error) {
        throw new RequestFailError(`Peer ${this.peerId} is not connected: ${(error as Error).message}`);
      }
    }
    const response = await socket.request(SC_EVENT_RPC_REQUEST, payload);
    if (typeof response !== 'object' || response === null)
      throw new RequestFailError(`Failed to handle response for procedure ${procedure}`);
    const body = response as { data?: unknown };
    if (body.data !== undefined && typeof body.data !== 'string')
      throw new RequestFailError(`Failed to handle response for procedure ${procedure}`);
    return { peerId: this.peerId, data: fromBase64(body.data) };
  }

  applyPenalty(penalty: number): void {
    this.reputation -= penalty;
    if (this.reputation <= 0 && !this.#closed) this.#handlers.onBan(this);
  }

  /** Closes with `#disconnect {code, reason}` and stops every timer. */
  disconnect(code: number, reason?: string): void {
    this.#stopTimers();
    if (this.#socket !== undefined && this.#socket.state !== 'closed') this.#socket.disconnect(code, reason);
    else this.#onClose(code, reason);
  }

  /** Options from a postNodeInfo or the node info an outbound peer answered getNodeInfo with. */
  updateNodeInfo(shared: SharedState): void {
    this.sharedState = shared;
    this.#handlers.onNodeInfo(this);
  }

  toPeerInfo(): PeerInfo {
    const shared = this.sharedState;
    return {
      peerId: this.peerId,
      ipAddress: this.ipAddress,
      port: this.port,
      ...(shared?.options === undefined
        ? {}
        : {
            sharedState: {
              chainID: shared.chainID,
              networkVersion: shared.networkVersion,
              nonce: shared.nonce,
              advertiseAddress: shared.advertiseAddress,
              options: shared.options,
            },
          }),
      internalState: {
        reputation: this.reputation,
        connectionKind: this.kind,
        peerKind: this.peerKind,
        latency: this.latency,
        connectTime: this.connectTime,
        advertiseAddress: this.advertiseAddress,
      },
    };
  }

  toKnownPeer(): KnownPeer {
    return {
      peerId: this.peerId,
      ipAddress: this.ipAddress,
      port: this.port,
      sharedState: this.sharedState,
      advertiseAddress: this.advertiseAddress,
      peerKind: this.peerKind,
    };
  }

  #onRawRequest(data: unknown, respond: Respond | undefined): void {
    const answer: Respond = respond ?? (() => undefined);
    if (!isRpcRequest(data)) {
      answer(new Error('RPC request format is invalid.'));
      return;
    }
    const { procedure } = data;
    if (this.kind === 'outbound' && procedure === RPC_PING) {
      this.counters.countRpc(procedure);
      this.counters.productivity.requestCounter += 1;
      this.counters.countAnswer(true);
      answer(undefined, { data: PONG_DATA, peerId: this.peerId });
      return;
    }
    if (procedure === RPC_GET_NODE_INFO) {
      this.counters.discovery.getNodeInfo += 1;
      if (this.counters.discovery.getNodeInfo > 1) this.applyPenalty(10);
    }
    if (procedure === RPC_GET_PEERS) {
      this.counters.discovery.getPeers += 1;
      if (this.counters.discovery.getPeers > 1) this.applyPenalty(10);
    }
    // a second getNodeInfo/getPeers within one rate window is counted and left unanswered
    if (RATE_LIMITED_PROTOCOL_PROCEDURES.has(procedure) && this.counters.rpcCounter.has(procedure)) {
      this.counters.countRpc(procedure);
      return;
    }
    this.counters.countRpc(procedure);
    this.counters.productivity.requestCounter += 1;
    let sent = false;
    const once = (error: Error | undefined, payload?: unknown): void => {
      if (sent) throw new Error(`A response has already been sent for the request procedure <<${procedure}>>`);
      sent = true;
      this.counters.countAnswer(error === undefined);
      answer(error, payload);
    };
    this.#handlers.onRequest(this, {
      procedure,
      data: fromBase64(data.data),
      peerId: this.peerId,
      rate: this.counters.rpcRate(procedure),
      end: (result?: Buffer) =>
        once(
          undefined,
          result === undefined ? { peerId: this.peerId } : { data: toBase64(result), peerId: this.peerId },
        ),
      error: (error: Error) => once(error),
    });
  }

  #onRawMessage(data: unknown): void {
    if (!isProtocolMessage(data)) return;
    const { event } = data;
    this.counters.countMessage(event);
    const rate = this.counters.messageRate(event);
    const bytes = fromBase64(data.data);
    if (event === EVENT_POST_NODE_INFO) {
      this.counters.discovery.postNodeInfo += 1;
      if (this.counters.discovery.postNodeInfo > PEER_STATUS_MESSAGE_RATE) this.applyPenalty(10);
      this.#onPostNodeInfo(bytes);
      return;
    }
    this.#handlers.onMessage(this, { event, data: bytes, peerId: this.peerId, rate });
  }

  /** postNodeInfo updates only the options of what the peer announced (peer/base.js _handleUpdateNodeInfo). */
  #onPostNodeInfo(bytes: Buffer | undefined): void {
    try {
      if (bytes !== undefined && bytes.length > this.#maxPeerInfoSize)
        throw new InvalidPeerDataError(
          `Invalid NodeInfo was larger than the maximum allowed ${this.#maxPeerInfoSize} bytes`,
        );
      const decoded = decodeNodeInfo(bytes);
      const base = this.sharedState ?? {
        chainID: decoded.chainID,
        networkVersion: decoded.networkVersion,
        nonce: decoded.nonce,
        advertiseAddress: decoded.advertiseAddress,
      };
      this.updateNodeInfo({ ...base, options: { ...base.options, ...decoded.options } });
    } catch (error) {
      if (error instanceof InvalidPeerDataError) this.applyPenalty(INVALID_PEER_INFO_PENALTY);
    }
  }

  #closeRateWindow(): void {
    const { wsMessageRate, repeatedProcedures } = this.counters.closeWindow(this.#rateIntervalMs);
    if (wsMessageRate > this.#wsMaxMessageRate) {
      const coefficient = Math.floor(wsMessageRate / this.#wsMaxMessageRate);
      this.applyPenalty(WS_MAX_MESSAGE_RATE_PENALTY * Math.max(coefficient, 1));
    }
    for (const procedure of repeatedProcedures)
      if (RATE_LIMITED_PROTOCOL_PROCEDURES.has(procedure)) this.applyPenalty(WS_MAX_MESSAGE_RATE_PENALTY);
  }

  /** The accepting side pings its inbound peers every 20-60 s and keeps the round trip as latency. */
  #schedulePing(): void {
    const delay = Math.random() * (PING_INTERVAL_MAX_MS - PING_INTERVAL_MIN_MS) + PING_INTERVAL_MIN_MS;
    this.#pingTimer = setTimeout(() => {
      const start = Date.now();
      this.request(RPC_PING)
        .catch(() => undefined)
        .finally(() => {
          this.latency = Date.now() - start;
          if (!this.#closed) this.#schedulePing();
        });
    }, delay);
  }

  #stopTimers(): void {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    clearTimeout(this.#pingTimer);
  }

  #onClose(code: number, reason: string | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopTimers();
    this.#handlers.onClose(this, code, reason);
  }
}

// The accepting side: an HTTP server on hostIp:port (exclusive) whose upgrades at /rpc/ become SocketCluster server
// sockets; the frame rules of inbound_guard.ts, the ban on WebSocket ping/pong frames, the `#handshake` timeout.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { createServer, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  FORBIDDEN_CONNECTION_REASON,
  HTTP_PATH,
  RATE_CALCULATION_INTERVAL_MS,
  SC_HANDSHAKE_TIMEOUT_CODE,
  SERVER_ACK_TIMEOUT_MS,
  SERVER_HANDSHAKE_TIMEOUT_MS,
  SERVER_PING_INTERVAL_MS,
  SERVER_PING_TIMEOUT_MS,
} from '../constants.js';
import { P2PPortInUseError } from '../errors.js';
import { DisconnectCounter, guardInboundFrame } from './inbound_guard.js';
import { remoteIP } from './remote_ip.js';
import { ScSocket } from './sc_socket.js';

export interface PeerServerHooks {
  /** Blacklisted or banned: the upgrade is refused with HTTP 401 (as socketcluster-server's handshake middleware). */
  isBanned(ip: string): boolean;
  /** A frame broke the rules: the socket is already terminated; ban `ip:remotePort`. */
  onViolation(peerId: string, reason: string): void;
  /**
   * The client's `#handshake` arrived on a socket now marked open: accept it (true; the ack follows) or refuse it
   * (false, after disconnecting the socket with the refusal's code).
   */
  onHandshake(socket: ScSocket, request: IncomingMessage): boolean;
}

export interface PeerServerOptions {
  readonly hostIp: string;
  readonly port: number;
  readonly maxPayload: number;
  readonly hooks: PeerServerHooks;
}

/** Ends an upgrade request with an HTTP error, as ws's abortHandshake writes it. */
const refuseUpgrade = (socket: Duplex, code: number, message: string): void => {
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
    );
  }
  socket.destroy();
};

export class PeerServer {
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #sockets = new Set<ScSocket>();
  /** Every upgraded connection until its TCP socket closes (a SocketCluster socket may close before it). */
  readonly #connections = new Set<WebSocket>();
  readonly #disconnects = new DisconnectCounter();
  #resetTimer?: NodeJS.Timeout;

  constructor(readonly options: PeerServerOptions) {
    this.#http = createServer((_req, res) => {
      res.writeHead(426, { 'Content-Type': 'text/plain' });
      res.end(STATUS_CODES[426]);
    });
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.#http.on('upgrade', (req, socket, head) => this.#onUpgrade(req, socket, head));
    this.#http.on('clientError', (_error, socket) => socket.destroy());
  }

  /** Listens on hostIp:port; a port in use rejects with P2PPortInUseError. */
  async start(): Promise<void> {
    const { hostIp, port } = this.options;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException): void =>
        reject(
          error.code === 'EADDRINUSE'
            ? new P2PPortInUseError(hostIp, port)
            : new Error(`Could not listen on ${hostIp}:${port}: ${error.message}`),
        );
      this.#http.once('error', onError);
      this.#http.listen({ host: hostIp, port, exclusive: true }, () => {
        this.#http.off('error', onError);
        resolve();
      });
    });
    this.#http.on('error', () => undefined);
    this.#resetTimer = setInterval(() => this.#disconnects.reset(), RATE_CALCULATION_INTERVAL_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.#resetTimer);
    for (const socket of this.#sockets) socket.terminate();
    this.#sockets.clear();
    for (const ws of this.#connections) ws.terminate();
    this.#connections.clear();
    if (!this.#http.listening) return;
    await new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      this.#http.closeAllConnections();
    });
  }

  get connectionCount(): number {
    return this.#sockets.size;
  }

  #onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = req.url ?? '';
    const queryStart = url.indexOf('?');
    const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
    if (pathname !== HTTP_PATH) {
      refuseUpgrade(socket, 400, STATUS_CODES[400] ?? 'Bad Request');
      return;
    }
    if (this.options.hooks.isBanned(remoteIP(req.socket))) {
      refuseUpgrade(socket, 401, FORBIDDEN_CONNECTION_REASON);
      return;
    }
    try {
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onWebSocket(ws, req));
    } catch {
      socket.destroy();
    }
  }

  #onWebSocket(ws: WebSocket, req: IncomingMessage): void {
    this.#connections.add(ws);
    ws.once('close', () => this.#connections.delete(ws));
    const ip = remoteIP(req.socket);
    const peerId = `${ip}:${req.socket.remotePort ?? ''}`;
    const { hooks } = this.options;
    const socket = new ScSocket(ws, {
      role: 'server',
      frameGuard: (text) => guardInboundFrame(text, ip, this.#disconnects),
      ackTimeoutMs: SERVER_ACK_TIMEOUT_MS,
      pingIntervalMs: SERVER_PING_INTERVAL_MS,
      pongTimeoutMs: SERVER_PING_TIMEOUT_MS,
    });
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    if (hooks.isBanned(ip)) {
      socket.terminate();
      return;
    }
    const violation = (reason: string): void => {
      socket.terminate();
      hooks.onViolation(peerId, reason);
    };
    socket.on('controlFrame', (kind) =>
      violation(`Terminated connection peer: ${ip}, reason: malicious ${kind} control frames`),
    );
    socket.on('violation', (reason, text) =>
      violation(`Banned peer with Ip: ${ip}, reason: ${reason}, message: ${text}`),
    );
    const handshakeTimer = setTimeout(() => socket.disconnect(SC_HANDSHAKE_TIMEOUT_CODE), SERVER_HANDSHAKE_TIMEOUT_MS);
    socket.once('close', () => clearTimeout(handshakeTimer));
    const onEvent = (
      name: string,
      _data: unknown,
      respond: ((e: Error | undefined, d?: unknown) => void) | undefined,
    ) => {
      if (name !== '#handshake') return;
      clearTimeout(handshakeTimer);
      socket.off('event', onEvent);
      socket.state = 'open';
      let accepted = false;
      try {
        accepted = hooks.onHandshake(socket, req);
      } catch {
        socket.disconnect(1011);
      }
      if (accepted && socket.state === 'open')
        respond?.(undefined, {
          id: randomBytes(15).toString('base64'),
          pingTimeout: SERVER_PING_TIMEOUT_MS,
          isAuthenticated: false,
        });
    };
    socket.on('event', onEvent);
  }
}

// One SocketCluster 14 connection over a `ws` WebSocket, either end: events with call ids and their responses,
// the `#1`/`#2` heartbeat, `#disconnect`, ack timeouts. Protocol rules (what a peer may send) live in server.ts
// and the peer; this file only speaks the protocol.
import { EventEmitter } from 'node:events';
import type { RawData, WebSocket } from 'ws';
import { BadConnectionError, RequestTimeoutError } from '../errors.js';
import { decodeFrame, dehydrateError, hydrateError, SC_PING, SC_PONG } from './sc_packet.js';

const rawText = (data: RawData): string =>
  Array.isArray(data)
    ? Buffer.concat(data).toString()
    : Buffer.isBuffer(data)
      ? data.toString()
      : Buffer.from(data).toString();

/** How long a server socket stays open after the client's `#disconnect` (the client closes it itself). */
const DISCONNECTED_GRACE_MS = 10_000;

export type Respond = (error: Error | undefined, data?: unknown) => void;

export interface ScSocketEvents {
  /** Every WebSocket message, before decoding (for the per-peer message rate). */
  frame: [text: string];
  /** An event from the other side; `respond` is set when it carries a call id. */
  event: [name: string, data: unknown, respond: Respond | undefined];
  /** The frame guard refused a frame. */
  violation: [reason: string, text: string];
  /** A WebSocket ping or pong control frame (forbidden between Klayr peers). */
  controlFrame: [kind: 'ping' | 'pong'];
  close: [code: number, reason: string | undefined];
}

/** Thrown by a frame guard: the frame breaks the rules (the socket emits 'violation' and drops the frame). */
export class FrameViolation extends Error {
  override readonly name = 'FrameViolation';
}

export interface ScSocketOptions {
  readonly role: 'server' | 'client';
  /**
   * Checks each frame and returns it decoded (so it is parsed once), or throws a FrameViolation. Without a
   * guard, frames are decoded as sc-formatter does.
   */
  readonly frameGuard?: (text: string) => unknown;
  readonly ackTimeoutMs: number;
  /** Server: send `#1` this often and close with 4001 after `pongTimeoutMs` without any message. */
  readonly pingIntervalMs?: number;
  readonly pongTimeoutMs?: number;
}

interface Pending {
  readonly resolve: (data: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
  readonly event: string;
}

export type ScState = 'connecting' | 'open' | 'closed';

export class ScSocket extends EventEmitter<ScSocketEvents> {
  state: ScState = 'connecting';
  #nextCid = 1;
  readonly #pending = new Map<number, Pending>();
  #pingInterval?: NodeJS.Timeout;
  #livenessTimer?: NodeJS.Timeout;
  #livenessMs?: number;
  #livenessCode = 0;
  #corked = false;
  #lastAlive = 0;

  constructor(
    readonly ws: WebSocket,
    readonly options: ScSocketOptions,
  ) {
    super();
    ws.on('message', (data) => this.#onMessage(data));
    ws.on('close', (code, reason) => this.#onClosed(code, reason.length > 0 ? reason.toString() : undefined));
    ws.on('error', () => {
      // a socket error is followed by 'close'; nothing else to do
    });
    ws.on('ping', () => this.emit('controlFrame', 'ping'));
    ws.on('pong', () => this.emit('controlFrame', 'pong'));
    if (options.role === 'server') {
      const interval = options.pingIntervalMs;
      if (interval !== undefined) this.#pingInterval = setInterval(() => this.#sendText(SC_PING), interval);
      if (options.pongTimeoutMs !== undefined) this.#watchLiveness(options.pongTimeoutMs, 4001);
    }
  }

  /** Client: after the handshake, close with 4000 when no `#1` comes within `pingTimeoutMs` (as SCTransport). */
  expectPings(pingTimeoutMs: number): void {
    this.#watchLiveness(pingTimeoutMs, 4000);
  }

  #watchLiveness(ms: number, code: number): void {
    this.#livenessMs = ms;
    this.#livenessCode = code;
    this.#resetLiveness();
  }

  /** Notes a sign of life; one timer per socket checks the time of the last one (no timer churn per message). */
  #resetLiveness(): void {
    if (this.#livenessMs === undefined || this.state === 'closed') return;
    this.#lastAlive = Date.now();
    if (this.#livenessTimer === undefined) this.#armLiveness(this.#livenessMs);
  }

  #armLiveness(delayMs: number): void {
    this.#livenessTimer = setTimeout(() => {
      this.#livenessTimer = undefined;
      const ms = this.#livenessMs ?? 0;
      const quietFor = Date.now() - this.#lastAlive;
      if (quietFor >= ms) this.close(this.#livenessCode);
      else if (this.state !== 'closed') this.#armLiveness(ms - quietFor);
    }, delayMs);
  }

  #onMessage(data: RawData): void {
    const text = rawText(data);
    // frames that arrive while the connection closes still meet the frame guard (a #disconnect flood)
    this.emit('frame', text);
    let decoded: unknown;
    const guard = this.options.frameGuard;
    if (guard === undefined) {
      decoded = decodeFrame(text);
    } else {
      try {
        decoded = guard(text);
      } catch (error) {
        this.emit('violation', (error as Error).message, text);
        return;
      }
    }
    if (this.state === 'closed') return;
    if (this.options.role === 'server') this.#resetLiveness();
    if (decoded === SC_PING) {
      if (this.options.role === 'client') {
        this.#resetLiveness();
        this.#sendText(SC_PONG);
      }
      return;
    }
    if (Array.isArray(decoded)) {
      for (const item of decoded) this.#onPacket(item);
    } else {
      this.#onPacket(decoded);
    }
  }

  #onPacket(packet: unknown): void {
    if (this.state === 'closed' || typeof packet !== 'object' || packet === null) return;
    const p = packet as Record<string, unknown>;
    if (p.event !== undefined && p.event !== null) {
      const name = String(p.event);
      const cid = p.cid;
      if (name === '#disconnect') {
        const d = (typeof p.data === 'object' && p.data !== null ? p.data : {}) as { code?: unknown; data?: unknown };
        const code = typeof d.code === 'number' ? d.code : 1005;
        const reason = typeof d.data === 'string' ? d.data : undefined;
        if (this.options.role === 'client') {
          this.close(code, reason);
        } else {
          // socketcluster-server only marks its socket closed and leaves the connection to the client (whose
          // frames its peer server still checks); a client that keeps it open is dropped after a grace period
          this.#markClosed(code, reason);
          setTimeout(() => this.ws.terminate(), DISCONNECTED_GRACE_MS).unref();
        }
        return;
      }
      // SocketCluster answers only events whose cid is truthy
      const respond = cid ? this.#responder(cid) : undefined;
      this.emit('event', name, p.data, respond);
      return;
    }
    if (p.rid !== undefined && p.rid !== null) {
      const pending = this.#pending.get(Number(p.rid));
      if (pending === undefined) return;
      this.#pending.delete(Number(p.rid));
      clearTimeout(pending.timer);
      if (p.error !== undefined && p.error !== null) pending.reject(hydrateError(p.error));
      else pending.resolve(p.data);
    }
  }

  #responder(cid: unknown): Respond {
    let sent = false;
    return (error, data) => {
      if (sent) throw new Error(`Response ${String(cid)} has already been sent`);
      sent = true;
      const packet: Record<string, unknown> = { rid: cid };
      if (error !== undefined) packet.error = dehydrateError(error);
      if (data !== undefined) packet.data = data;
      this.#sendText(JSON.stringify(packet));
    };
  }

  /** An event without a response (fire and forget). */
  emitEvent(event: string, data: unknown): void {
    if (this.state === 'closed') return;
    this.#sendText(JSON.stringify(data === undefined ? { event } : { event, data }));
  }

  /** An event with a call id; resolves with the response's data, rejects with its error or a timeout. */
  request(event: string, data: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.state === 'closed') {
        reject(new BadConnectionError(`Event '${event}' was aborted due to a bad connection`));
        return;
      }
      const cid = this.#nextCid++;
      const timer = setTimeout(() => {
        this.#pending.delete(cid);
        reject(new RequestTimeoutError(`Event response for '${event}' timed out`));
      }, this.options.ackTimeoutMs);
      this.#pending.set(cid, { resolve, reject, timer, event });
      this.#sendText(JSON.stringify(data === undefined ? { event, cid } : { event, data, cid }));
    });
  }

  /** SocketCluster's disconnect: tell the other side with `#disconnect {code, data: reason}`, then close. */
  disconnect(code: number, reason?: string): void {
    if (this.state === 'closed') return;
    this.#sendText(
      JSON.stringify({ event: '#disconnect', data: reason === undefined ? { code } : { code, data: reason } }),
    );
    this.close(code, reason);
  }

  /** Closes with a code, without `#disconnect` (as SocketCluster's ping/pong timeouts do). */
  close(code: number, reason?: string): void {
    if (this.state === 'closed') return;
    this.#markClosed(code, reason);
    try {
      this.ws.close(code);
    } catch {
      this.ws.terminate();
    }
  }

  /** Drops the TCP connection at once (no close frame). */
  terminate(): void {
    this.ws.terminate();
    this.#markClosed(1006, undefined);
  }

  #onClosed(code: number, reason: string | undefined): void {
    this.#markClosed(code, reason);
  }

  #markClosed(code: number, reason: string | undefined): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearInterval(this.#pingInterval);
    clearTimeout(this.#livenessTimer);
    for (const [cid, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new BadConnectionError(`Event '${pending.event}' was aborted due to a bad connection`));
      this.#pending.delete(cid);
    }
    this.emit('close', code, reason);
  }

  #sendText(text: string): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.#cork();
    this.ws.send(text);
  }

  /**
   * Frames sent in one turn of the event loop (answers to a batch of requests read in one TCP read, a broadcast)
   * leave in one write: the TCP socket under ws is corked until the next tick.
   */
  #cork(): void {
    if (this.#corked) return;
    const tcp = (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (tcp === undefined) return;
    this.#corked = true;
    tcp.cork();
    process.nextTick(() => {
      this.#corked = false;
      tcp.uncork();
    });
  }
}

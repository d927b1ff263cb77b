import type { EventHub } from './events.js';
import type { FrontMetrics } from './metrics.js';
import type { RequestHandler } from './request_handler.js';

export interface HttpWsOptions {
  host: string;
  port: number;
  http: boolean;
  ws: boolean;
  dispatcher: RequestHandler;
  hub: EventHub;
  metrics?: FrontMetrics;
  /** Largest request body (HTTP) or message (WS) in bytes. */
  maxBodySize: number;
  /** A client that has not sent its whole body in this time is disconnected. */
  bodyTimeoutMs: number;
  /** Bytes queued for a slow WebSocket reader before it is disconnected. */
  maxBackpressure: number;
  accessControlAllowOrigin: string;
  health: () => unknown;
}

export interface RunningHttpWs {
  readonly kind: 'uws' | 'node';
  readonly port: number;
  close(): Promise<void>;
}

/** Klayr Core closes WebSocket connections from origins outside accessControlAllowOrigin. */
export const originAllowed = (allowed: string, origin: string | undefined): boolean =>
  origin === undefined ||
  origin === '' ||
  allowed === '*' ||
  allowed
    .split(',')
    .map((o) => o.trim())
    .includes(origin);

/**
 * Klayr Core pings every WebSocket client this often (klayr-framework ws_server.js _setUpPing). Klayr Service arms a
 * watchdog at each ping and resets its client when the next one is late (its wsServerPingInterval, 3 s, plus 1 s).
 */
export const WS_PING_INTERVAL_MS = 3000;

/** Pings each socket of `sockets` every WS_PING_INTERVAL_MS; the returned function stops it. */
export const pingEvery = <S>(sockets: ReadonlySet<S>, ping: (socket: S) => void): (() => void) => {
  const timer = setInterval(() => {
    for (const socket of sockets) ping(socket);
  }, WS_PING_INTERVAL_MS);
  return () => clearInterval(timer);
};

export const tooLarge = (max: number): string => `Request body exceeds the limit of ${max} bytes.`;

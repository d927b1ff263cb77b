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

export const tooLarge = (max: number): string => `Request body exceeds the limit of ${max} bytes.`;

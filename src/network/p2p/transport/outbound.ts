// The dialling side: a WebSocket to ws://ip:port/rpc/?<handshake query>, then SocketCluster's `#handshake`
// (socketcluster-client 14: connect timeout, handshake ack, then `#1` expected within the server's pingTimeout).
import { WebSocket } from 'ws';
import { HTTP_PATH, SC_CONNECT_TIMEOUT_CODE, SC_HANDSHAKE_FAILED_CODE } from '../constants.js';
import { ScSocket } from './sc_socket.js';

export interface OutboundSocketOptions {
  readonly ipAddress: string;
  readonly port: number;
  readonly query: string;
  readonly maxPayload: number;
  readonly connectTimeoutMs: number;
  readonly ackTimeoutMs: number;
}

/** Why a dial did not become a connection: the close code and reason the socket ended with. */
export class ConnectAbortError extends Error {
  override readonly name = 'ConnectAbortError';
  constructor(
    readonly code: number,
    readonly reason: string | undefined,
  ) {
    super(`Connection aborted with code ${code}${reason === undefined ? '' : `: ${reason}`}`);
  }
}

export interface OutboundSocket {
  /** Usable at once: events the server sends before acknowledging the handshake arrive on it. */
  readonly socket: ScSocket;
  /** Resolves once the server acknowledged `#handshake`; rejects with a ConnectAbortError otherwise. */
  readonly ready: Promise<void>;
}

const isHandshakeStatus = (v: unknown): v is { pingTimeout?: unknown } => typeof v === 'object' && v !== null;

export const openOutboundSocket = (options: OutboundSocketOptions): OutboundSocket => {
  const url = `ws://${options.ipAddress}:${options.port}${HTTP_PATH}?${options.query}`;
  const ws = new WebSocket(url, { maxPayload: options.maxPayload, perMessageDeflate: false });
  const socket = new ScSocket(ws, { role: 'client', ackTimeoutMs: options.ackTimeoutMs });
  const ready = new Promise<void>((resolve, reject) => {
    const connectTimer = setTimeout(() => socket.close(SC_CONNECT_TIMEOUT_CODE), options.connectTimeoutMs);
    const onClose = (code: number, reason: string | undefined): void => {
      clearTimeout(connectTimer);
      reject(new ConnectAbortError(code, reason));
    };
    socket.once('close', onClose);
    ws.once('open', () => {
      clearTimeout(connectTimer);
      socket.request('#handshake', { authToken: null }).then(
        (status) => {
          if (socket.state === 'closed') return;
          socket.off('close', onClose);
          socket.state = 'open';
          const pingTimeout = isHandshakeStatus(status) ? status.pingTimeout : undefined;
          if (typeof pingTimeout === 'number' && pingTimeout > 0) socket.expectPings(pingTimeout);
          resolve();
        },
        () => socket.close(SC_HANDSHAKE_FAILED_CODE),
      );
    });
  });
  // a rejected dial is reported through the promise; keep an unobserved rejection from being fatal
  ready.catch(() => undefined);
  return { socket, ready };
};

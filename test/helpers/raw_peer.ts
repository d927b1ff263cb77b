// A raw WebSocket peer for the hostile-client and refusal tests: it speaks SocketCluster by hand (or breaks it on
// purpose) from a chosen loopback source address.
import { randomBytes } from 'node:crypto';
import { stringify } from 'node:querystring';
import { WebSocket } from 'ws';

export interface RawPeer {
  readonly ws: WebSocket;
  /** Frames received, in order. */
  readonly frames: string[];
  /** Resolves with the close code (1006 when the connection was dropped). */
  readonly closed: Promise<number>;
  sendJSON(value: unknown): void;
}

export interface RawPeerOptions {
  readonly host: string;
  readonly port: number;
  readonly from: string;
  readonly query?: Record<string, string | number | boolean>;
}

export const honestQuery = (port: number, overrides: Record<string, string | number | boolean> = {}) => ({
  networkVersion: '5.1',
  chainID: '04000000',
  nonce: randomBytes(8).toString('hex'),
  advertiseAddress: true,
  port,
  ...overrides,
});

/** Opens the WebSocket; rejects with the HTTP status when the upgrade is refused. */
export const openRawPeer = (options: RawPeerOptions): Promise<RawPeer> =>
  new Promise((resolve, reject) => {
    const query = stringify(options.query ?? honestQuery(30000));
    const ws = new WebSocket(`ws://${options.host}:${options.port}/rpc/?${query}`, {
      localAddress: options.from,
      perMessageDeflate: false,
    });
    const frames: string[] = [];
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('message', (data) => frames.push(data.toString()));
    ws.on('error', () => undefined);
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`HTTP ${res.statusCode}`));
      ws.terminate();
    });
    ws.once('open', () => resolve({ ws, frames, closed, sendJSON: (v) => ws.send(JSON.stringify(v)) }));
    ws.once('close', () => reject(new Error('closed before open')));
  });

/** Opens and completes the SocketCluster handshake (cid 1), waiting for its ack. */
export const handshakenRawPeer = async (options: RawPeerOptions, timeoutMs = 3000): Promise<RawPeer> => {
  const peer = await openRawPeer(options);
  peer.sendJSON({ event: '#handshake', data: { authToken: null }, cid: 1 });
  const deadline = Date.now() + timeoutMs;
  while (!peer.frames.some((f) => f.startsWith('{"rid":1'))) {
    if (Date.now() > deadline) throw new Error(`no handshake ack; frames: ${peer.frames.join(' | ')}`);
    if (peer.ws.readyState !== WebSocket.OPEN)
      throw new Error(`closed during handshake; frames: ${peer.frames.join(' | ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return peer;
};

/** The close code within `timeoutMs`, or 'open'. */
export const closeCodeWithin = (peer: RawPeer, timeoutMs: number): Promise<number | 'open'> =>
  Promise.race([peer.closed, new Promise<'open'>((r) => setTimeout(() => r('open'), timeoutMs))]);

/** Whether a new connection from `from` is refused at the upgrade (a banned IP). */
export const isRefused = async (options: RawPeerOptions): Promise<boolean> => {
  try {
    const peer = await openRawPeer(options);
    peer.ws.terminate();
    return false;
  } catch (error) {
    return (error as Error).message === 'HTTP 401';
  }
};

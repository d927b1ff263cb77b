// A lean SocketCluster client for the P2P benchmark: the same client (pre-serialized frames, no per-message
// allocation beyond ws's) drives both servers, so the ratio compares the servers.
import { randomBytes } from 'node:crypto';
import { stringify } from 'node:querystring';
import { WebSocket } from 'ws';

export interface BenchClient {
  send(frame: string): void;
  /** Sends an rpc-request frame (its cid filled in) and resolves on the matching response. */
  request(procedure: string, data: string): Promise<void>;
  close(): void;
}

export const connectBenchClient = (host: string, port: number, from: string): Promise<BenchClient> =>
  new Promise((resolve, reject) => {
    const query = stringify({
      networkVersion: '5.1',
      chainID: '04000000',
      nonce: randomBytes(8).toString('hex'),
      advertiseAddress: true,
      port: 30000,
    });
    const ws = new WebSocket(`ws://${host}:${port}/rpc/?${query}`, { localAddress: from, perMessageDeflate: false });
    let cid = 1;
    // frames written in one tick leave in one write, so that the client is not the bottleneck
    let corked = false;
    const write = (frame: string): void => {
      const tcp = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
      if (!corked && tcp !== undefined) {
        corked = true;
        tcp.cork();
        process.nextTick(() => {
          corked = false;
          tcp.uncork();
        });
      }
      ws.send(frame);
    };
    const pending = new Map<number, () => void>();
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (text === '#1') {
        ws.send('#2');
        return;
      }
      if (!text.startsWith('{"rid":')) return;
      const rid = Number.parseInt(text.slice(7), 10);
      const done = pending.get(rid);
      if (done !== undefined) {
        pending.delete(rid);
        done();
      }
    });
    ws.once('open', () => {
      ws.send(JSON.stringify({ event: '#handshake', data: { authToken: null }, cid: cid++ }));
      pending.set(1, () =>
        resolve({
          send: write,
          request: (procedure, data) =>
            new Promise<void>((done) => {
              const id = cid++;
              pending.set(id, done);
              write(`{"event":"rpc-request","data":{"procedure":"${procedure}","data":"${data}"},"cid":${id}}`);
            }),
          close: () => ws.close(1000),
        }),
      );
    });
  });

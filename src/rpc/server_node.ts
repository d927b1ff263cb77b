import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import { topicMatches } from './events.js';
import { RPC_PATH, routeHttp, WS_PATH } from './http_routes.js';
import type { HttpWsOptions, RunningHttpWs } from './http_ws_options.js';
import { originAllowed, pingEvery, tooLarge } from './http_ws_options.js';
import { invalidRequest } from './jsonrpc.js';
import { listenError } from './listen_guard.js';
import { WSSession } from './ws_session.js';

/** The fallback when the uWebSockets.js binary cannot load: node:http + ws, same routes and behaviour. */
type SessionSocket = WebSocket & { session?: WSSession };

/** The socket's RPC session, which the upgrade gives it before it is listened to or listed. */
const sessionOf = (ws: SessionSocket): WSSession => {
  if (ws.session === undefined) throw new Error('The WebSocket has no RPC session: it was not upgraded.');
  return ws.session;
};

export const startNodeHttpWs = (o: HttpWsOptions): Promise<RunningHttpWs> => {
  const origin = o.accessControlAllowOrigin;
  const headers = (contentType: string) => ({
    'Content-Type': contentType,
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'POST',
  });
  const server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    if (!(o.http && method === 'POST' && url === RPC_PATH)) {
      void routeHttp(method, url, o.metrics, o.health).then((answer) => {
        const a =
          answer === 'rpc'
            ? { status: '404 Not Found', contentType: 'application/json', body: `${url} not found.` }
            : answer;
        res.writeHead(Number(a.status.split(' ')[0]), headers(a.contentType)).end(a.body);
      });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.setTimeout(o.bodyTimeoutMs, () => req.destroy());
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > o.maxBodySize) {
        done = true;
        res
          .writeHead(413, { ...headers('application/json'), Connection: 'close' })
          .end(invalidRequest(null, tooLarge(o.maxBodySize)));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      void Promise.resolve(o.dispatcher.handle(Buffer.concat(chunks).toString('utf8'), 'http')).then((out) => {
        if (!res.destroyed) res.writeHead(200, headers('application/json')).end(out);
      });
    });
  });
  const sockets = new Set<SessionSocket>();
  // a reader that lets its backlog pass the limit is disconnected rather than buffered without end
  // (the uWS engine gets the same from its closeOnBackpressureLimit)
  const guardedSend = (ws: SessionSocket, text: string): void => {
    if (sessionOf(ws).closed) return;
    if (ws.bufferedAmount + text.length > o.maxBackpressure) {
      sessionOf(ws).closed = true;
      ws.terminate();
      return;
    }
    ws.send(text);
  };
  let removeSink: () => void = () => undefined;
  if (o.ws) {
    const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxBodySize });
    server.on('upgrade', (req, socket, head) => {
      if (req.url !== WS_PATH || !originAllowed(origin, req.headers.origin)) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws: SessionSocket) => {
        ws.session = new WSSession(o.dispatcher, (text) => guardedSend(ws, text));
        sockets.add(ws);
        o.metrics?.wsClients.inc();
        ws.on('message', (data) => sessionOf(ws).onMessage(data.toString()));
        ws.on('close', () => {
          sessionOf(ws).closed = true;
          sockets.delete(ws);
          o.metrics?.wsClients.dec();
        });
        ws.on('error', () => ws.terminate());
      });
    });
    const removeHubSink = o.hub.addSink((name, text) => {
      for (const ws of sockets) {
        const session = sessionOf(ws);
        if (!session.closed && topicMatches(session.topics, name)) guardedSend(ws, text);
      }
    });
    const stopPings = pingEvery(sockets, (ws) => {
      if (ws.readyState === ws.OPEN) ws.ping();
    });
    removeSink = () => {
      removeHubSink();
      stopPings();
    };
  }
  return new Promise((resolve, reject) => {
    server.once('error', (e) => {
      removeSink();
      reject(listenError(o.host, o.port, e));
    });
    server.listen({ port: o.port, host: o.host, exclusive: true }, () => {
      resolve({
        kind: 'node',
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            removeSink();
            for (const ws of sockets) ws.terminate();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
};

import type { HttpResponse, TemplatedApp, WebSocket as UWSSocket, us_listen_socket } from 'uWebSockets.js';
import { createRequire } from 'node:module';
import { topicMatches } from './events.js';
import { RPC_PATH, routeHttp, WS_PATH } from './http_routes.js';
import type { HttpWsOptions, RunningHttpWs } from './http_ws_options.js';
import { originAllowed, pingEvery, tooLarge } from './http_ws_options.js';
import { invalidRequest } from './jsonrpc.js';
import { listenError, probeListen } from './listen_guard.js';
import { WSSession } from './ws_session.js';

type UWS = typeof import('uWebSockets.js');

/**
 * libusockets' listen option that leaves SO_REUSEPORT off: without it a second server binds the
 * same port and the kernel splits connections between the two.
 */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

/** Loads the uWebSockets.js binary; undefined when it cannot load on this platform. */
export const loadUWS = (): UWS | undefined => {
  try {
    return createRequire(import.meta.url)('uWebSockets.js') as UWS;
  } catch {
    return undefined;
  }
};

interface SocketData {
  session?: WSSession;
}

/** The socket's RPC session, which `open` gives it before any other handler runs. */
const sessionOf = (ws: UWSSocket<SocketData>): WSSession => {
  const { session } = ws.getUserData();
  if (session === undefined) throw new Error('The WebSocket has no RPC session: it was not opened.');
  return session;
};

const JSON_TYPE = 'application/json';

/** Header names and the values every answer repeats, encoded once: uWS copies bytes instead of converting strings. */
const CONTENT_TYPE = Buffer.from('Content-Type');
const ALLOW_ORIGIN = Buffer.from('Access-Control-Allow-Origin');
const JSON_TYPE_BYTES = Buffer.from(JSON_TYPE);

const write = (
  res: HttpResponse,
  status: string,
  contentType: string,
  origin: Buffer,
  body: string,
  close = false,
): void => {
  res.cork(() => {
    res
      .writeStatus(status)
      .writeHeader(CONTENT_TYPE, contentType === JSON_TYPE ? JSON_TYPE_BYTES : contentType)
      .writeHeader(ALLOW_ORIGIN, origin);
    res.end(body, close);
  });
};

/** The same text as Buffer#toString (a BOM is kept, invalid sequences become U+FFFD), without a Buffer object per body. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** HTTP POST /rpc and WS /rpc-ws on uWebSockets.js. */
export const startUWS = (uws: UWS, o: HttpWsOptions): Promise<RunningHttpWs> => {
  const app: TemplatedApp = uws.App();
  const sockets = new Set<UWSSocket<SocketData>>();
  const origin = o.accessControlAllowOrigin;
  const originBytes = Buffer.from(origin);
  const { dispatcher, maxBodySize } = o;
  let removeSink: () => void = () => undefined;

  // one sweep closes request bodies that take too long, instead of a timer per request
  const reading = new Map<HttpResponse, number>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [res, deadline] of reading) {
      if (deadline > now) continue;
      reading.delete(res);
      res.close();
    }
  }, 1000);
  sweep.unref();
  // uWS closes connections idle for 10 s itself; bodies that trickle in are swept here

  /** 200 with the answer; uWS says 200 OK unless told otherwise, and a data callback runs corked already. */
  const answerNow = (res: HttpResponse, text: string): void => {
    res.writeHeader(CONTENT_TYPE, JSON_TYPE_BYTES).writeHeader(ALLOW_ORIGIN, originBytes).end(text);
  };

  if (o.http) {
    app.post(RPC_PATH, (res) => {
      let aborted = false;
      let chunks: Buffer[] | undefined;
      let size = 0;
      res.onAborted(() => {
        aborted = true;
        if (chunks !== undefined) reading.delete(res);
      });
      res.onData((chunk, isLast) => {
        if (aborted) return;
        size += chunk.byteLength;
        if (size > maxBodySize) {
          if (chunks !== undefined) reading.delete(res);
          aborted = true;
          write(
            res,
            '413 Payload Too Large',
            JSON_TYPE,
            originBytes,
            invalidRequest(null, tooLarge(maxBodySize)),
            true,
          );
          return;
        }
        let text: string;
        if (isLast && chunks === undefined) {
          // the usual single-chunk body, decoded in place (uWS reuses the chunk's memory after this callback)
          text = utf8.decode(chunk);
        } else {
          if (chunks === undefined) {
            chunks = [];
            reading.set(res, Date.now() + o.bodyTimeoutMs);
          }
          chunks.push(Buffer.from(chunk.slice(0)));
          if (!isLast) return;
          reading.delete(res);
          text = utf8.decode(Buffer.concat(chunks));
        }
        const out = dispatcher.handle(text, 'http');
        if (typeof out === 'string') answerNow(res, out);
        else void out.then((answer) => !aborted && res.cork(() => answerNow(res, answer)));
      });
    });
  }

  app.any('/*', (res, req) => {
    const method = req.getMethod().toUpperCase();
    const url = req.getUrl() + (req.getQuery() ? `?${req.getQuery()}` : '');
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    void routeHttp(method, url, o.metrics, o.health).then((a) => {
      if (aborted) return;
      if (a === 'rpc') write(res, '404 Not Found', JSON_TYPE, originBytes, `${url} not found.`);
      else write(res, a.status, a.contentType, originBytes, a.body);
    });
  });

  if (o.ws) {
    app.ws<SocketData>(WS_PATH, {
      maxPayloadLength: o.maxBodySize,
      maxBackpressure: o.maxBackpressure,
      closeOnBackpressureLimit: 1,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        if (!originAllowed(origin, req.getHeader('origin'))) {
          res.writeStatus('403 Forbidden').end();
          return;
        }
        res.upgrade<SocketData>(
          {},
          req.getHeader('sec-websocket-key'),
          req.getHeader('sec-websocket-protocol'),
          req.getHeader('sec-websocket-extensions'),
          context,
        );
      },
      open: (ws) => {
        const data = ws.getUserData();
        data.session = new WSSession(o.dispatcher, (text) => {
          ws.send(text, false);
        });
        sockets.add(ws);
        o.metrics?.wsClients.inc();
      },
      message: (ws, message) => {
        sessionOf(ws).onMessage(utf8.decode(message));
      },
      close: (ws) => {
        sessionOf(ws).closed = true;
        sockets.delete(ws);
        o.metrics?.wsClients.dec();
      },
    });
    const removeHubSink = o.hub.addSink((name, text) => {
      for (const ws of sockets) {
        const session = sessionOf(ws);
        if (!session.closed && topicMatches(session.topics, name)) ws.send(text, false);
      }
    });
    const stopPings = pingEvery(sockets, (ws) => {
      if (!sessionOf(ws).closed) ws.ping();
    });
    removeSink = () => {
      removeHubSink();
      stopPings();
    };
  }

  return new Promise((resolve, reject) => {
    // the typings lack the (host, port, options, cb) form the binary takes
    const listen = app.listen.bind(app) as unknown as (
      host: string,
      port: number,
      options: number,
      cb: (token: us_listen_socket | false) => void,
    ) => void;
    listen(o.host, o.port, LIBUS_LISTEN_EXCLUSIVE_PORT, (token) => {
      if (token === false) {
        clearInterval(sweep);
        removeSink();
        // uWS says only that it failed: a plain bind tells why
        void probeListen(o.host, o.port).then((cause) =>
          reject(listenError(o.host, o.port, cause ?? new Error('uWebSockets.js refused the address'))),
        );
        return;
      }
      resolve({
        kind: 'uws',
        port: uws.us_socket_local_port(token),
        close: async () => {
          clearInterval(sweep);
          removeSink();
          uws.us_listen_socket_close(token);
          for (const ws of [...sockets]) ws.end(1001, 'server shutting down');
          // and every HTTP connection still open (keep-alive): a thread that runs the server ends only with none
          (app as TemplatedApp & { close(): void }).close(); // missing from the typings
        },
      });
    });
  });
};

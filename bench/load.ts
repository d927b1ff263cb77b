// The Node.js load generator, used where bench/load.c cannot be compiled; run as a child process
// so it does not share the servers' event loop:
//   node load.js http|ws <url> <connections> <seconds> <body>
// prints {"requests": n, "rps": x, "p50": ms, "p99": ms, "errors": 0}; HTTP with autocannon

import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import autocannon from 'autocannon';

const [kind, url, connections, seconds, body] = process.argv.slice(2) as [string, string, string, string, string];

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const http = async (): Promise<void> => {
  const result = await autocannon({
    url,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    connections: Number(connections),
    duration: Number(seconds),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`non-2xx ${result.non2xx}, errors ${result.errors}`);
  process.stdout.write(
    JSON.stringify({
      requests: result.requests.total,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: 0,
    }),
  );
};

interface Frame {
  opcode: number;
  payload: Buffer;
}

/** Every answer must carry a result (not an error). */
const RESULT = Buffer.from('"result"');
/** An application's error answered as a result (Klayr Core's ABI): a failure too. */
const APPLICATION_ERROR = Buffer.from('"result":{"error"');
const OPCODE_TEXT = 0x1;
const OPCODE_BINARY = 0x2;
const OPCODE_CLOSE = 0x8;
const OPCODE_PING = 0x9;
const OPCODE_PONG = 0xa;

/** Server frames (unmasked) complete in `buffer`, and where the incomplete rest starts. */
const completeFrames = (buffer: Buffer): { frames: Frame[]; rest: number } => {
  let offset = 0;
  const frames: Frame[] = [];
  for (;;) {
    if (buffer.length - offset < 2) break;
    let length = buffer[offset + 1] & 0x7f;
    let header = 2;
    if (length === 126) {
      if (buffer.length - offset < 4) break;
      length = buffer.readUInt16BE(offset + 2);
      header = 4;
    } else if (length === 127) {
      if (buffer.length - offset < 10) break;
      length = Number(buffer.readBigUInt64BE(offset + 2));
      header = 10;
    }
    if (buffer.length - offset < header + length) break;
    frames.push({
      opcode: buffer[offset] & 0x0f,
      payload: buffer.subarray(offset + header, offset + header + length),
    });
    offset += header + length;
  }
  return { frames, rest: offset };
};

/** A client frame: a zero masking key makes the masked payload the payload itself. */
const clientFrame = (opcode: number, data: Buffer): Buffer => {
  if (data.length > 125) throw new Error('the load body must fit a 7-bit frame length');
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | data.length, 0, 0, 0, 0]), data]);
};

/**
 * N connections, each with one request in flight (like autocannon without pipelining). Spoken
 * over raw sockets with a pre-built frame, so the loader costs little CPU and the servers, not
 * the loader, are what is measured.
 */
const ws = async (): Promise<void> => {
  const target = new URL(url);
  const frame = clientFrame(OPCODE_TEXT, Buffer.from(body));
  const latencies: number[] = [];
  const end = Date.now() + Number(seconds) * 1000;
  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      let upgraded = false;
      let pending: Buffer = Buffer.alloc(0);
      let sent = 0;
      const fire = (): void => {
        if (Date.now() >= end) {
          socket.destroy();
          resolve();
          return;
        }
        sent = performance.now();
        socket.write(frame);
      };
      socket.on('error', reject);
      socket.on('connect', () => {
        socket.write(
          `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        if (!upgraded) {
          const headerEnd = pending.indexOf('\r\n\r\n');
          if (headerEnd < 0) return;
          if (!pending.subarray(0, headerEnd).toString().startsWith('HTTP/1.1 101')) {
            reject(new Error(`upgrade refused: ${pending.subarray(0, headerEnd).toString()}`));
            return;
          }
          upgraded = true;
          pending = pending.subarray(headerEnd + 4);
          fire();
        }
        const { frames, rest } = completeFrames(pending);
        pending = pending.subarray(rest);
        for (const { opcode, payload } of frames) {
          // servers that check liveness (Klayr's) ping their clients: answer, or be dropped
          if (opcode === OPCODE_PING) socket.write(clientFrame(OPCODE_PONG, payload));
          else if (opcode === OPCODE_CLOSE) reject(new Error('the server closed the connection'));
          else if (opcode === OPCODE_TEXT || opcode === OPCODE_BINARY) {
            if (!payload.includes(RESULT) || payload.includes(APPLICATION_ERROR))
              reject(new Error(`not a JSON-RPC result: ${payload.toString()}`));
            latencies.push(performance.now() - sent);
            fire();
          }
        }
      });
    });
  await Promise.all(Array.from({ length: Number(connections) }, connection));
  latencies.sort((a, b) => a - b);
  process.stdout.write(
    JSON.stringify({
      requests: latencies.length,
      rps: latencies.length / Number(seconds),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: 0,
    }),
  );
};

await (kind === 'http' ? http() : ws());

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebSocket } from 'ws';
import { Rng } from '../helpers/random.js';
import type { TestServer } from '../helpers/rpc.js';
import { post, rpc, startTestServer } from '../helpers/rpc.js';

const TOTAL = 100_000;

/** A full collection before each heap reading, so the memory check sees what is retained, not garbage not yet collected. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** One malformed (or occasionally accidentally valid) request. */
const malformed = (rng: Rng): string | Buffer => {
  const valid = rpc(rng.pick(['test_echo', 'system_getNodeInfo', 'test_fail', 'x_y']), { text: 'a' }, rng.int(1000));
  switch (rng.int(10)) {
    case 0:
      return rng.bytes(rng.int(200)); // random bytes, often invalid UTF-8
    case 1:
      return valid.slice(0, rng.int(valid.length)); // truncated
    case 2:
      return JSON.stringify({ jsonrpc: rng.pick(['1.0', 2, null]), id: 1, method: 'test_echo' });
    case 3:
      return JSON.stringify({
        jsonrpc: '2.0',
        id: rng.pick([{}, [], true, Number.POSITIVE_INFINITY]),
        method: 'test_echo',
      });
    case 4:
      return JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: rng.pick([5, null, '', '_', 'a_', '_b', 'a__b', 'x'.repeat(5000), 'a\u0000_b']),
      });
    case 5:
      return JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'test_echo',
        params: rng.pick([[], 'x', 5, null, { text: 5 }, { text: 'y'.repeat(rng.int(50)) }]),
      });
    case 6:
      return `${'['.repeat(1 + rng.int(5000))}${']'.repeat(rng.int(5000))}`; // deep nesting
    case 7: {
      const b = Buffer.from(valid);
      b[rng.int(b.length)] = rng.int(256);
      return b; // one corrupted byte
    }
    case 8:
      return `[${Array.from({ length: rng.int(5) }, () => (rng.next() < 0.5 ? valid : '{}')).join(',')}]`;
    default:
      return rng.pick([
        'null',
        'true',
        '""',
        '{}',
        '[]',
        '1e999',
        '{"__proto__":{"x":1},"jsonrpc":"2.0","id":1,"method":"test_echo"}',
      ]);
  }
};

describe('fuzz: malformed requests', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it(`${TOTAL.toLocaleString('en')} malformed requests over WebSocket are each answered with a JSON-RPC response; the server stays up and memory stays flat`, async () => {
    const rng = new Rng(99);
    const ws = new WebSocket(t.wsUrl);
    await new Promise((r) => ws.once('open', r));
    let answered = 0;
    let pending: (() => void) | undefined;
    let waitingFor = 0;
    ws.on('message', (data) => {
      const reply = JSON.parse(data.toString()) as unknown;
      const items = Array.isArray(reply) ? reply : [reply];
      for (const item of items) {
        const r = item as { jsonrpc?: string; error?: { code: number; message: string }; result?: unknown };
        assert.equal(r.jsonrpc, '2.0');
        assert.ok(r.error !== undefined || r.result !== undefined, JSON.stringify(r).slice(0, 200));
        if (r.error !== undefined) assert.ok(r.error.code === -32600 || r.error.code === -32601);
      }
      answered++;
      if (answered === waitingFor) pending?.();
    });
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const BATCH = 2000;
    for (let sent = 0; sent < TOTAL; sent += BATCH) {
      waitingFor = sent + BATCH;
      const done = new Promise<void>((r) => (pending = r));
      for (let i = 0; i < BATCH; i++) ws.send(malformed(rng));
      await done;
    }
    assert.equal(answered, TOTAL);
    assert.equal(ws.readyState, WebSocket.OPEN);
    ws.close();
    collectGarbage();
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024, 'heap grew by more than 64 MiB');
    const after = await post(t.url, rpc('test_echo', { text: 'alive' }));
    assert.deepEqual((after.json as { result: unknown }).result, { text: 'alive', transport: 'http' });
    const rss = process.memoryUsage().rss;
    assert.ok(rss < 1024 * 1024 * 1024, `rss ${rss}`);
  });

  it('an oversized WebSocket message closes that connection cleanly; others are unaffected', async () => {
    const ws = new WebSocket(t.wsUrl);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('x'.repeat(2 * 1024 * 1024));
    assert.ok([1006, 1009].includes(await closed));
    assert.equal((await post(t.url, rpc('test_empty'))).status, 200);
  });

  it('malformed HTTP bodies (invalid UTF-8, random bytes) each get a JSON-RPC error', async () => {
    const rng = new Rng(5);
    for (let i = 0; i < 300; i++) {
      const body = malformed(rng);
      const res = await fetch(t.url, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body) });
      assert.equal(res.status, 200);
      const json = (await res.json()) as unknown;
      assert.ok(typeof json === 'object' && json !== null);
    }
  });

  it('a client that never finishes its body is disconnected and does not block others', async () => {
    const { connect } = await import('node:net');
    const socket = connect(t.server.port!, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"');
    const res = await post(t.url, rpc('test_empty'));
    assert.equal(res.status, 200);
    socket.destroy();
  });
});

describe('WebSocket backpressure', () => {
  for (const engine of ['uws', 'node'] as const) {
    it(`a subscriber that stops reading is disconnected once its backlog passes the limit; others keep receiving (${engine})`, async () => {
      const t = await startTestServer({}, engine);
      try {
        const slow = new WebSocket(t.wsUrl);
        const fast = new WebSocket(t.wsUrl);
        await Promise.all([new Promise((r) => slow.once('open', r)), new Promise((r) => fast.once('open', r))]);
        const subscribed = (ws: WebSocket) =>
          new Promise((r) => {
            ws.once('message', r);
            ws.send(
              JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { topics: ['chain_newBlock'] } }),
            );
          });
        await Promise.all([subscribed(slow), subscribed(fast)]);
        let fastReceived = 0;
        fast.on('message', () => fastReceived++);
        const slowClosed = new Promise<void>((r) => slow.once('close', () => r()));
        slow.on('error', () => undefined);
        let slowReceived = 0;
        slow.on('message', () => slowReceived++);
        const slowSocket = (slow as unknown as { _socket: { pause(): void; resume(): void } })._socket;
        slowSocket.pause();
        const payload = { blob: 'x'.repeat(512 * 1024) };
        const published = 60;
        for (let i = 0; i < published; i++) {
          t.server.publish('chain_newBlock', payload);
          await new Promise((r) => setTimeout(r, 10));
        }
        slowSocket.resume();
        await Promise.race([
          slowClosed,
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('slow subscriber was not disconnected')), 10_000),
          ),
        ]);
        assert.ok(slowReceived < published, `slow subscriber received all ${slowReceived} notifications`);
        t.server.publish('chain_newBlock', { after: true });
        await new Promise((r) => setTimeout(r, 200));
        assert.ok(fastReceived > 0);
        assert.equal(fast.readyState, WebSocket.OPEN);
        fast.close();
      } finally {
        await t.close();
      }
    });
  }
});

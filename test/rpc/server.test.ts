import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { TestServer } from '../helpers/rpc.js';
import { post, postInPieces, rpc, startTestServer } from '../helpers/rpc.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');

const error = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
/** An error of the application (a module's, a plugin's or an unknown method) answered as Klayr Core's ABI does. */
const appError = (id: unknown, message: string) => ({ jsonrpc: '2.0', id, result: { error: { message } } });

for (const engine of ['uws', 'node'] as const) {
  describe(`RPC front over HTTP, WS and IPC (${engine === 'uws' ? 'uWebSockets.js' : 'node:http + ws fallback'})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({}, engine);
      assert.equal(t.server.httpEngine, engine);
    });
    after(() => t.close());

    describe('HTTP POST /rpc', () => {
      it('answers a request with {jsonrpc, id, result}', async () => {
        const res = await post(t.url, rpc('test_echo', { text: 'hi' }, 'abc'));
        assert.equal(res.status, 200);
        assert.deepEqual(res.json, { jsonrpc: '2.0', id: 'abc', result: { text: 'hi', transport: 'http' } });
        assert.deepEqual((await post(t.url, rpc('test_empty', {}))).json, { jsonrpc: '2.0', id: 1, result: {} });
      });

      it('answers every error case as Klayr Core does', async () => {
        const cases: [string, unknown][] = [
          ['', error(null, -32600, 'Invalid invoke request.')],
          ['{not json', error(null, -32600, 'Invalid RPC request. Failed to parse request params.')],
          [
            JSON.stringify({ id: 1, method: 'test_echo' }),
            error(null, -32600, 'Invalid RPC request. Invalid request format.'),
          ],
          // params that are not an object: Klayr Core's answer, under the request's id
          ...[[], 'x', 5, null].map((params): [string, unknown] => [
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', params }),
            error(1, -32600, 'Invalid RPC request. Invalid request format.'),
          ]),
          [
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: [], extra: 1 }),
            error(null, -32600, 'Invalid RPC request. Invalid request format.'),
          ],
          [
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', extra: 1 }),
            error(null, -32600, 'Invalid RPC request. Invalid request format.'),
          ],
          [
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: { text: 'x' }, extra: 1 }),
            error(null, -32600, 'Invalid RPC request. Invalid request format.'),
          ],
          [
            JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'test_echo' }),
            error(null, -32600, 'Invalid RPC request. Invalid request format.'),
          ],
          ['5', error(null, -32600, 'Invalid RPC request. Invalid request format.')],
          [
            rpc('noUnderscore'),
            error(1, -32600, 'Request name "noUnderscore" must be a valid name with module name and action name.'),
          ],
          [rpc('test_missing'), appError(1, "Request 'test_missing' is not registered to bus.")],
          [rpc('app_fail'), appError(1, 'module says no')],
          [rpc('app_getNodeInfo'), appError(1, "The action 'getNodeInfo' on module 'app' does not exist.")],
          [rpc('app_empty'), { jsonrpc: '2.0', id: 1, result: '{}' }],
          [
            rpc('app_echo', { text: 3 }),
            appError(1, "Klayr validator found 1 error[s]:\nProperty '.text' should be of type 'string'"),
          ],
          [
            rpc('app_echo', {}),
            appError(1, "Klayr validator found 1 error[s]:\nMissing property, must have required property 'text'"),
          ],
          [rpc('test_echo', {}), error(1, -32600, "Property '.' must have required property 'text'")],
          [
            rpc('test_echo', { text: 'x'.repeat(11) }),
            error(1, -32600, "Property '.text' must NOT have more than 10 characters"),
          ],
          [rpc('test_fail', {}), error(1, -32600, 'handler says no')],
          [
            rpc('test_bigint', {}),
            error(
              1,
              -32600,
              'Endpoint test_bigint returned a result that cannot be serialized: Do not know how to serialize a BigInt',
            ),
          ],
          [
            rpc('test_asyncBigint', {}),
            error(
              1,
              -32600,
              'Endpoint test_asyncBigint returned a result that cannot be serialized: Do not know how to serialize a BigInt',
            ),
          ],
          ['[]', error(null, -32600, 'Invalid RPC request. Empty batch.')],
        ];
        for (const [body, expected] of cases) {
          const res = await post(t.url, body);
          assert.equal(res.status, 200, body);
          assert.deepEqual(res.json, expected, body);
        }
      });

      it('answers a batch with an array in the same order', async () => {
        const res = await post(
          t.url,
          `[${rpc('test_echo', { text: 'a' }, 1)},${rpc('test_missing', {}, 2)},{"bad":true}]`,
        );
        assert.deepEqual(res.json, [
          { jsonrpc: '2.0', id: 1, result: { text: 'a', transport: 'http' } },
          appError(2, "Request 'test_missing' is not registered to bus."),
          error(null, -32600, 'Invalid RPC request. Invalid request format.'),
        ]);
        const tooMany = await post(t.url, `[${Array.from({ length: 101 }, () => rpc('test_empty')).join(',')}]`);
        assert.match((tooMany.json as { error: { message: string } }).error.message, /at most 100/);
      });

      it('reads a body that arrives in pieces, cut inside multi-byte characters, for sync and async endpoints', async () => {
        const text = 'h\u00e9\u2603\ud83e\udd85';
        const body = rpc('test_echo', { text }, 'pieces');
        const start = Buffer.from(body).indexOf(Buffer.from(text));
        // inside the 2-byte é, the 3-byte snowman and the 4-byte emoji
        const cuts = [start + 2, start + 5, start + 8];
        assert.deepEqual(await postInPieces(t.server.port!, body, cuts), {
          jsonrpc: '2.0',
          id: 'pieces',
          result: { text, transport: 'http' },
        });
        const asyncBody = rpc('test_asyncEcho', { text }, 2);
        assert.deepEqual(await postInPieces(t.server.port!, asyncBody, cuts), {
          jsonrpc: '2.0',
          id: 2,
          result: { text },
        });
      });

      it('refuses an oversized body with 413 and keeps serving', async () => {
        const res = await post(t.url, rpc('test_echo', { text: 'x'.repeat(2 * 1024 * 1024) }));
        assert.equal(res.status, 413);
        assert.deepEqual(res.json, error(null, -32600, 'Request body exceeds the limit of 1048576 bytes.'));
        assert.equal((await post(t.url, rpc('test_empty'))).status, 200);
      });

      it('404 for other paths, 405 for other methods on /rpc, GET /health, GET /metrics', async () => {
        const notFound = await fetch(`http://127.0.0.1:${t.server.port}/nope`);
        assert.equal(notFound.status, 404);
        assert.equal(await notFound.text(), '/nope not found.');
        const get = await fetch(t.url);
        assert.equal(get.status, 405);
        assert.equal(await get.text(), 'GET is not allowed for the request.');
        const health = await fetch(`http://127.0.0.1:${t.server.port}/health`);
        assert.deepEqual(await health.json(), { status: 'ok' });
        await post(t.url, rpc('test_echo', { text: 'm' }));
        const metrics = await (await fetch(`http://127.0.0.1:${t.server.port}/metrics`)).text();
        assert.match(
          metrics,
          /kestrel_rpc_requests_total\{method="test_echo",transport="http",outcome="success"\} \d+/,
        );
        assert.match(metrics, /kestrel_nodejs_eventloop_lag_seconds/);
      });

      it('rpc.discover returns an OpenRPC document of the registry', async () => {
        const doc = (await post(t.url, rpc('rpc.discover'))).json as {
          result: { openrpc: string; methods: { name: string; params: { name: string; required: boolean }[] }[] };
        };
        assert.equal(doc.result.openrpc, '1.2.6');
        const echo = doc.result.methods.find((m) => m.name === 'test_echo')!;
        assert.deepEqual(
          echo.params.map((p) => [p.name, p.required]),
          [['text', true]],
        );
        assert.ok(doc.result.methods.some((m) => m.name === 'system_getNodeInfo'));
      });
    });

    describe('WebSocket /rpc-ws with @klayr/api-client', () => {
      it("pings each client every 3 s, as Klayr Core's WS server does (Klayr Service resets a client whose pings stop)", async () => {
        const ws = new WebSocket(t.wsUrl);
        try {
          await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
          const pings: number[] = [];
          ws.on('ping', () => pings.push(Date.now()));
          const started = Date.now();
          while (pings.length < 2 && Date.now() - started < 12000) await new Promise((r) => setTimeout(r, 50));
          assert.equal(pings.length, 2, 'two pings within 12 s');
          const gap = pings[1]! - pings[0]!;
          assert.ok(gap > 2000 && gap < 6000, `${gap} ms between pings`);
        } finally {
          ws.terminate();
        }
      });

      it('invokes, maps errors to rejections, and delivers subscribed events', async () => {
        const client = await apiClient.createWSClient(t.wsUrl);
        try {
          const info = await client.invoke('system_getNodeInfo');
          assert.equal(info.chainID, '04000000');
          assert.equal(info.height, 7);
          assert.deepEqual(await client.invoke('test_echo', { text: 'ws' }), { text: 'ws', transport: 'ws' });
          await assert.rejects(() => client.invoke('test_fail', {}), /handler says no/);
          // as from Klayr Core: the application's errors arrive as results
          assert.deepEqual(await client.invoke('test_nothing', {}), {
            error: { message: "Request 'test_nothing' is not registered to bus." },
          });
          assert.deepEqual(await client.invoke('app_fail', {}), { error: { message: 'module says no' } });
          const received = new Promise((resolve) => client.subscribe('chain_newBlock', resolve));
          await new Promise((r) => setTimeout(r, 50));
          t.server.publish('txpool_newTransaction', { transaction: 'ignored' });
          t.server.publish('chain_newBlock', { blockHeader: { height: 8 } });
          assert.deepEqual(await received, { blockHeader: { height: 8 } });
        } finally {
          await client.disconnect();
        }
      });

      it('answers malformed messages with an error and keeps the connection', async () => {
        const ws = new WebSocket(t.wsUrl);
        await new Promise((r) => ws.once('open', r));
        const next = () => new Promise<unknown>((r) => ws.once('message', (d) => r(JSON.parse(d.toString()))));
        ws.send('{oops');
        assert.deepEqual(await next(), error(null, -32600, 'Invalid RPC request. Failed to parse request params.'));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'subscribe', params: { topics: 'x' } }));
        assert.match(JSON.stringify(await next()), /Invalid subscription message/);
        ws.send(`[${rpc('test_empty', {}, 1)},${rpc('test_empty', {}, 2)}]`);
        assert.deepEqual(await next(), [
          { jsonrpc: '2.0', id: 1, result: {} },
          { jsonrpc: '2.0', id: 2, result: {} },
        ]);
        ws.close();
      });
    });

    describe('IPC with @klayr/api-client createIPCClient(dataPath)', () => {
      it('invokes, maps errors to rejections, and delivers subscribed events', async () => {
        const client = await apiClient.createIPCClient(t.dataPath);
        try {
          assert.equal((await client.invoke('system_getNodeInfo')).chainID, '04000000');
          assert.deepEqual(await client.invoke('test_echo', { text: 'ipc' }), { text: 'ipc', transport: 'ipc' });
          await assert.rejects(() => client.invoke('test_fail', {}), /handler says no/);
          const received = new Promise((resolve) => client.subscribe('chain_newBlock', resolve));
          await new Promise((r) => setTimeout(r, 200));
          t.server.publish('chain_newBlock', { blockHeader: { height: 9 } });
          assert.deepEqual(await received, { blockHeader: { height: 9 } });
        } finally {
          await client.disconnect();
        }
      });
    });
  });
}

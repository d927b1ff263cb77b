import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { nativeLoader } from '../../bench/native_load.js';
import type { TestServer } from '../helpers/rpc.js';
import { startTestServer } from '../helpers/rpc.js';

const run = promisify(execFile);
const loader = nativeLoader();

interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  error: string;
}

const load = async (protocol: 'http' | 'ws', port: number, body: string): Promise<LoadResult> => {
  const { stdout } = await run(loader!, [
    protocol,
    '127.0.0.1',
    String(port),
    protocol === 'ws' ? '/rpc-ws' : '/rpc',
    '4',
    '0.5',
    body,
  ]);
  return JSON.parse(stdout) as LoadResult;
};

const request = (method: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} });

// the RPC bench's figures are only as good as its loader: it must count answers, and only results
for (const engine of ['uws', 'node'] as const) {
  describe(`the RPC bench's C load generator against ${engine === 'uws' ? 'uWebSockets.js' : 'node:http + ws (chunked HTTP answers)'}`, {
    skip: loader === undefined ? 'no C compiler on this machine' : false,
  }, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({}, engine);
    });
    after(() => t.close());

    for (const protocol of ['http', 'ws'] as const) {
      it(`${protocol}: counts answered requests, with latencies, and no errors`, async () => {
        const out = await load(protocol, t.server.port!, request('test_empty'));
        assert.equal(out.errors, 0, out.error);
        assert.ok(out.requests > 50, `only ${out.requests} requests`);
        assert.ok(out.rps > 0 && out.p50 > 0 && out.p99 >= out.p50);
      });

      it(`${protocol}: counts JSON-RPC errors as failures`, async () => {
        const out = await load(protocol, t.server.port!, request('test_fail'));
        assert.ok(out.errors > 0 && out.errors === out.requests, `${out.errors} errors of ${out.requests}`);
        assert.match(out.error, /not a JSON-RPC result: .*handler says no/);
      });

      it(`${protocol}: counts an application's error answered as a result as a failure`, async () => {
        const out = await load(protocol, t.server.port!, request('app_fail'));
        assert.ok(out.errors > 0 && out.errors === out.requests, `${out.errors} errors of ${out.requests}`);
        assert.match(out.error, /not a JSON-RPC result: .*module says no/);
      });
    }
  });
}

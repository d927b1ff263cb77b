import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { LOCK_FILE } from '../../src/main/lock/data_path_lock.js';
import { RPCServer } from '../../src/rpc/server.js';
import { loadUWS } from '../../src/rpc/server_uws.js';
import { runCLI } from '../helpers/cli.js';
import type { NodeProcess } from '../helpers/node_process.js';
import { fastDevnetConfig, nodeHeight, startNodeProcess, waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { startTestServer, testRegistry } from '../helpers/rpc.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');

const lockHolder = (dataPath: string): { pid: number; startedAt: string } =>
  JSON.parse(readFileSync(join(dataPath, LOCK_FILE), 'utf8')) as { pid: number; startedAt: string };

/** Blocks keep coming: the height goes up by two more (3-second blocks). */
const keepsGenerating = async (node: NodeProcess): Promise<void> => {
  const from = (await nodeHeight(node.port))!;
  await waitUntil(
    `node on port ${node.port} passes height ${from + 1}`,
    async () => ((await nodeHeight(node.port)) ?? -1) >= from + 2,
    30_000,
  );
};

describe('one node per data path and per port (kestrel start)', () => {
  const config = fastDevnetConfig();
  const dataPath = tempDataPath();
  let first: NodeProcess;

  before(async () => {
    first = await startNodeProcess(dataPath, await freePort(), '-c', config);
    await waitUntil('the first node has generated a block', async () => ((await nodeHeight(first.port)) ?? 0) >= 1);
  });
  after(() => first.stop('SIGKILL'));

  it('a second node on the same data path is refused at once, naming the running process and when it started; the first keeps generating', async () => {
    const holder = lockHolder(dataPath);
    assert.equal(holder.pid, first.child.pid);
    const started = Date.now();
    const second = await runCLI('start', '-d', dataPath, '--api-port', String(await freePort()), '-c', config);
    assert.ok(Date.now() - started < 5000, 'refused before any slow work');
    assert.equal(second.code, 1);
    assert.match(
      second.stderr,
      new RegExp(
        `"msg":"Data path ${dataPath} is in use by another Kestrel node: process ${first.child.pid}, started ${holder.startedAt.replace(/\./g, '\\.')}`,
      ),
    );
    assert.deepEqual(lockHolder(dataPath), holder, 'the running node keeps its lock');
    await keepsGenerating(first);
  });

  it("a node whose RPC port is taken is refused before it opens its data path; the port stays the first node's", async () => {
    const other = tempDataPath();
    const refused = await runCLI('start', '-d', other, '--api-port', String(first.port), '-c', config);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(`"msg":"Port ${first.port} on 127\\.0\\.0\\.1 is already in use \\(rpc\\.port\\)"`),
    );
    assert.deepEqual(readdirSync(other), [], 'nothing written: no config, no LMDB environment, no lock');
    await keepsGenerating(first);
  });

  it('a clean stop removes the lock', async () => {
    const dataPath = tempDataPath();
    const node = await startNodeProcess(dataPath, await freePort(), '-c', config);
    await waitUntil('the node answers', async () => (await nodeHeight(node.port)) !== undefined);
    assert.equal(lockHolder(dataPath).pid, node.child.pid);
    assert.deepEqual(await node.stop(), { code: 0, signal: null });
    assert.equal(existsSync(join(dataPath, LOCK_FILE)), false);
  });

  it('the lock (and the IPC sockets) of a node killed with SIGKILL are taken over, and the chain resumes', async () => {
    const dataPath = tempDataPath();
    const killed = await startNodeProcess(dataPath, await freePort(), '-c', config);
    await waitUntil('the node has generated a block', async () => ((await nodeHeight(killed.port)) ?? 0) >= 1);
    const height = (await nodeHeight(killed.port))!;
    assert.equal((await killed.stop('SIGKILL')).signal, 'SIGKILL');
    assert.equal(lockHolder(dataPath).pid, killed.child.pid, 'a killed node leaves its lock behind');
    const next = await startNodeProcess(dataPath, await freePort(), '-c', config);
    try {
      await waitUntil('the next node answers', async () => (await nodeHeight(next.port)) !== undefined);
      assert.equal(lockHolder(dataPath).pid, next.child.pid);
      assert.ok((await nodeHeight(next.port))! >= height, "the chain resumed at the killed node's height");
      await keepsGenerating(next);
    } finally {
      await next.stop();
    }
  });
});

describe('RPC listeners refuse what is taken', () => {
  const silent = pino({ level: 'silent' });
  const server = (
    engine: 'uws' | 'node',
    port: number,
    modes: ('http' | 'ipc')[] = ['http'],
    dataPath = tempDataPath(),
  ) =>
    new RPCServer({
      rpc: { modes, host: '127.0.0.1', port, allowedMethods: ['*'] },
      dataPath,
      registry: testRegistry(),
      logger: silent,
      engine,
    });

  let plain: Server;
  let plainPort: number;
  let reusing: { close(): void; port: number };
  before(async () => {
    plain = createServer();
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainPort = (plain.address() as { port: number }).port;
    // a uWS listener with SO_REUSEPORT, as uWS binds by default (and as Kestrel did before)
    const uws = loadUWS()!;
    reusing = await new Promise((resolve) =>
      uws.App().listen('127.0.0.1', 0, (token) => {
        assert.ok(token !== false);
        resolve({ port: uws.us_socket_local_port(token), close: () => uws.us_listen_socket_close(token) });
      }),
    );
  });
  after(() => {
    plain.close();
    reusing.close();
  });

  for (const engine of ['uws', 'node'] as const) {
    it(`${engine}: a port held by another server is an error naming it, whether that server shares ports or not`, async () => {
      for (const port of [plainPort, reusing.port]) {
        await assert.rejects(() => server(engine, port).start(), {
          name: 'PortInUseError',
          message: `Port ${port} on 127.0.0.1 is already in use (rpc.port)`,
        });
      }
    });

    it(`${engine}: a second server on the first one's port is refused and every request still reaches the first`, async () => {
      const first = await startTestServer({ modes: ['http'] }, engine);
      try {
        await assert.rejects(
          () => server(engine === 'uws' ? 'node' : 'uws', first.server.port!).start(),
          /already in use \(rpc\.port\)/,
        );
        await assert.rejects(() => server(engine, first.server.port!).start(), /already in use \(rpc\.port\)/);
        for (let i = 0; i < 10; i++) {
          const res = await fetch(first.url, {
            method: 'POST',
            body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'test_echo', params: { text: 'x' } }),
          });
          assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: i, result: { text: 'x', transport: 'http' } });
        }
      } finally {
        await first.close();
      }
    });
  }

  it('IPC: a data path whose sockets another server serves is refused, and the first keeps answering; once it stops, the sockets are free', async () => {
    const first = await startTestServer({ modes: ['ipc'] });
    try {
      await assert.rejects(
        () => server('uws', 0, ['ipc'], first.dataPath).start(),
        /IPC socket .*engine\.external\.rpc\.ipc is already in use by another process/,
      );
      const client = await apiClient.createIPCClient(first.dataPath);
      assert.deepEqual(await client.invoke('test_echo', { text: 'still' }), { text: 'still', transport: 'ipc' });
      await client.disconnect();
    } finally {
      await first.close();
    }
    const again = server('uws', 0, ['ipc'], first.dataPath);
    await again.start();
    await again.stop();
  });
});

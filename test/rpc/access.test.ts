import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { TestServer } from '../helpers/rpc.js';
import { post, rpc, startTestServer } from '../helpers/rpc.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');
const DISABLED = 'Requested method or namespace is disabled in node config.';

const methods = ['system_getNodeInfo', 'system_getSchema', 'generator_getStatus', 'test_empty'];
const forms: { allowed: string[]; expect: (m: string) => boolean }[] = [
  { allowed: ['*'], expect: () => true },
  { allowed: ['system'], expect: (m) => m.startsWith('system_') },
  { allowed: ['system_getNodeInfo', 'test'], expect: (m) => m === 'system_getNodeInfo' || m.startsWith('test_') },
  { allowed: ['generator'], expect: (m) => m.startsWith('generator_') },
  { allowed: [], expect: () => false },
];

/** The outcome of one call over each transport: 'ok' or the error message. */
const callHTTP = async (t: TestServer, method: string): Promise<string> => {
  const { json } = await post(t.url, rpc(method, {}));
  const r = json as { result?: unknown; error?: { message: string } };
  return r.error === undefined ? 'ok' : r.error.message;
};

const callWS = (ws: WebSocket, method: string): Promise<string> =>
  new Promise((resolve) => {
    ws.once('message', (d) => {
      const r = JSON.parse(d.toString()) as { error?: { message: string } };
      resolve(r.error === undefined ? 'ok' : r.error.message);
    });
    ws.send(rpc(method, {}));
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const callIPC = async (client: any, method: string): Promise<string> => {
  try {
    await client._channel.invoke(method, {});
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('rpc.allowedMethods gates every transport identically', () => {
  for (const form of forms) {
    it(`allowedMethods ${JSON.stringify(form.allowed)}`, async () => {
      const t = await startTestServer({ allowedMethods: form.allowed });
      const ws = new WebSocket(t.wsUrl);
      await new Promise((r) => ws.once('open', r));
      // the api-client's own init calls system_* methods, so IPC is driven through a raw channel
      const { IPCChannel } = require('@klayr/api-client/dist-node/ipc_channel');
      const ipc = new IPCChannel(t.dataPath);
      await ipc.connect();
      try {
        for (const method of methods) {
          const expected = form.expect(method) ? 'ok' : DISABLED;
          assert.equal(await callHTTP(t, method), expected, `http ${method}`);
          assert.equal(await callWS(ws, method), expected, `ws ${method}`);
          assert.equal(await callIPC({ _channel: ipc }, method), expected, `ipc ${method}`);
        }
        // a disabled method is reported as disabled even when it does not exist
        if (!form.expect('nothere_method')) assert.equal(await callHTTP(t, 'nothere_method'), DISABLED);
      } finally {
        ws.close();
        await ipc.disconnect();
        await t.close();
      }
    });
  }

  it('rpc.modes selects the transports', async () => {
    const t = await startTestServer({ modes: ['ipc'] });
    try {
      assert.equal(t.server.port, undefined);
      const client = await apiClient.createIPCClient(t.dataPath);
      assert.equal((await client.invoke('system_getNodeInfo')).height, 7);
      await client.disconnect();
    } finally {
      await t.close();
    }
    const w = await startTestServer({ modes: ['ws'] });
    try {
      assert.equal(
        (await fetch(w.url, { method: 'POST', body: rpc('system_getSchema') })).status,
        404,
        'http disabled',
      );
      const client = await apiClient.createWSClient(w.wsUrl);
      assert.ok((await client.invoke('system_getSchema')).header);
      await client.disconnect();
    } finally {
      await w.close();
    }
  });
});

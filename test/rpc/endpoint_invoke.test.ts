import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCLI } from '../helpers/cli.js';
import type { TestServer } from '../helpers/rpc.js';
import { startTestServer } from '../helpers/rpc.js';

const run = runCLI;

describe('kestrel endpoint:invoke', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ allowedMethods: ['system', 'test'] });
  });
  after(() => t.close());

  it('invokes over IPC (by data path) and over WebSocket, printing the result', async () => {
    const ipc = await run('endpoint:invoke', 'system_getNodeInfo', '-d', t.dataPath);
    assert.equal(ipc.code, 0, ipc.stderr);
    assert.equal((JSON.parse(ipc.stdout) as { chainID: string }).chainID, '04000000');
    const ws = await run('endpoint:invoke', 'test_echo', '{"text":"cli"}', '--ws', t.wsUrl);
    assert.equal(ws.code, 0, ws.stderr);
    assert.deepEqual(JSON.parse(ws.stdout), { text: 'cli', transport: 'ws' });
  });

  it('prints clear errors: disabled namespace, bad params, invalid JSON, node down', async () => {
    const disabled = await run('endpoint:invoke', 'generator_getStatus', '-d', t.dataPath);
    assert.equal(disabled.code, 1);
    assert.match(disabled.stderr, /Requested method or namespace is disabled in node config\./);
    const badParams = await run('endpoint:invoke', 'test_echo', '{}', '-d', t.dataPath);
    assert.match(badParams.stderr, /must have required property 'text'/);
    const notJSON = await run('endpoint:invoke', 'test_echo', '{text', '-d', t.dataPath);
    assert.match(notJSON.stderr, /params must be a JSON object/);
    const down = await run('endpoint:invoke', 'system_getNodeInfo', '-d', '/tmp/kestrel-no-node-here');
    assert.equal(down.code, 1);
    assert.match(down.stderr, /Could not connect to the node over IPC/);
    const wsDown = await run('endpoint:invoke', 'system_getNodeInfo', '--ws', 'ws://127.0.0.1:1/rpc-ws');
    assert.match(wsDown.stderr, /Could not connect to the node at ws:\/\/127\.0\.0\.1:1\/rpc-ws/);
  });
});

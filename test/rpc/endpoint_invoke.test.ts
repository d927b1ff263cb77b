import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCLI } from '../helpers/cli.js';
import type { TestServer } from '../helpers/rpc.js';
import { startTestServer } from '../helpers/rpc.js';

const run = runCLI;

describe('kestrel endpoint:invoke', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ allowedMethods: ['system', 'test', 'app'] });
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

  it("as Klayr Core's: params from --file; an application's error answered as a result is printed as that result", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kestrel-params-')), 'params.json');
    writeFileSync(file, '{"text":"fromfile"}');
    const fromFile = await run('endpoint:invoke', 'test_echo', '-f', file, '-d', t.dataPath);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(JSON.parse(fromFile.stdout).text, 'fromfile');
    const missing = await run('endpoint:invoke', 'test_echo', '-f', `${file}.nope`, '-d', t.dataPath);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /params\.json\.nope does not exist\./);
    const failed = await run('endpoint:invoke', 'app_fail', '-d', t.dataPath);
    assert.equal(failed.code, 0, failed.stderr);
    assert.equal(failed.stdout, '{"error":{"message":"module says no"}}\n');
    const unknown = await run('endpoint:invoke', 'app_nothing', '-d', t.dataPath, '--pretty');
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.deepEqual(JSON.parse(unknown.stdout), {
      error: { message: "The action 'nothing' on module 'app' does not exist." },
    });
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

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MAINCHAIN_ID, SIDECHAIN_GENESIS_FILE, SIDECHAIN_ID } from '../../src/main/interop_network/constants.js';
import { createNetwork } from '../../src/main/interop_network/create_network.js';
import { networkLayout } from '../../src/main/interop_network/layout.js';
import type { InteropNetworkProcess } from '../helpers/interop_network.js';
import { nodePids, processAlive, startInteropNetwork } from '../helpers/interop_network.js';
import { httpRPC, nodeHeight, waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';

const RUNNING = /The network is running/;

describe('kestrel network:interop — two nodes, registration, clean stop', { timeout: 240_000 }, () => {
  const root = join(mkdtempSync(join(tmpdir(), 'kestrel-interop-run-')), 'net');
  let network: InteropNetworkProcess | undefined;
  let ports: { mainchain: number; sidechain: number };
  const heights: Record<string, number> = {};
  after(async () => {
    await network?.stop();
    rmSync(dirname(root), { recursive: true, force: true });
  });

  it('creates the network on the first run and serves both chains on their ports', async () => {
    ports = { mainchain: await freePort(), sidechain: await freePort() };
    network = startInteropNetwork(root, ports.mainchain, ports.sidechain, '--block-time', '3');
    await network.waitForLine(RUNNING, 120_000);
    assert.match(network.output(), /Creating the network at/);
    assert.equal(((await httpRPC(ports.mainchain, 'system_getNodeInfo')) as { chainID: string }).chainID, MAINCHAIN_ID);
    assert.equal(((await httpRPC(ports.sidechain, 'system_getNodeInfo')) as { chainID: string }).chainID, SIDECHAIN_ID);
  });

  it('both nodes generate blocks', async () => {
    for (const [name, port] of Object.entries(ports)) {
      const start = (await nodeHeight(port))!;
      await waitUntil(`${name} grows past ${start}`, async () => ((await nodeHeight(port)) ?? 0) > start, 15_000);
      heights[name] = (await nodeHeight(port))!;
    }
  });

  it('registers the sidechain on the mainchain and the mainchain on the sidechain', async () => {
    assert.match(network!.output(), /Sidechain 04000001 \(kestrel_sidechain\) on the mainchain: done/);
    assert.match(network!.output(), /Mainchain 04000000 on the sidechain: done/);
    const sidechainAccount = (await httpRPC(ports.mainchain, 'interoperability_getChainAccount', {
      chainID: SIDECHAIN_ID,
    })) as { name: string };
    assert.equal(sidechainAccount.name, 'kestrel_sidechain');
    const mainchainAccount = (await httpRPC(ports.sidechain, 'interoperability_getChainAccount', {
      chainID: MAINCHAIN_ID,
    })) as { name: string };
    assert.equal(mainchainAccount.name, 'klayr_mainchain');
  });

  it('SIGINT stops both nodes cleanly: exit code 0, no node process left, data path locks freed', async () => {
    const pids = nodePids(network!.output());
    assert.equal(pids.length, 2);
    const exit = await network!.stop('SIGINT');
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.match(network!.output(), /mainchain node stopped \(exit code 0\)/);
    assert.match(network!.output(), /sidechain node stopped \(exit code 0\)/);
    for (const pid of pids) assert.equal(processAlive(pid), false, `node ${pid} still runs`);
    for (const chain of ['mainchain', 'sidechain']) assert.equal(existsSync(join(root, chain, 'kestrel.lock')), false);
    network = undefined;
  });

  it('a second run reuses the network: both chains continue, registrations are not posted again', async () => {
    network = startInteropNetwork(root, ports.mainchain, ports.sidechain);
    await network.waitForLine(RUNNING, 120_000);
    assert.match(network.output(), /Network at .*: 3-second blocks/);
    assert.doesNotMatch(network.output(), /Creating the network/);
    assert.match(network.output(), /Sidechain 04000001 \(kestrel_sidechain\) on the mainchain: already registered/);
    assert.match(network.output(), /Mainchain 04000000 on the sidechain: already registered/);
    for (const [name, port] of Object.entries(ports))
      assert.ok((await nodeHeight(port))! >= heights[name]!, `${name} kept its chain`);
    assert.deepEqual(await network.stop('SIGINT'), { code: 0, signal: null });
    network = undefined;
  });

  it('a node that dies stops the other node and the command (exit code 1, naming the node)', async () => {
    network = startInteropNetwork(root, ports.mainchain, ports.sidechain);
    await network.waitForLine(RUNNING, 120_000);
    const [mainchainPid, sidechainPid] = nodePids(network.output());
    process.kill(sidechainPid!, 'SIGKILL');
    const [code] = (await once(network.child, 'exit')) as [number | null];
    assert.equal(code, 1);
    assert.match(network.stderr(), /The sidechain node exited \(signal SIGKILL\)/);
    assert.match(network.output(), /mainchain node stopped \(exit code 0\)/);
    assert.equal(processAlive(mainchainPid!), false);
    assert.equal(existsSync(join(root, 'mainchain', 'kestrel.lock')), false);
    network = undefined;
  });
});

describe('kestrel network:interop — a node that cannot start', { timeout: 120_000 }, () => {
  it("stops the other node and exits 1 with the end of the failing node's log", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kestrel-interop-broken-'));
    try {
      const root = join(dir, 'net');
      await createNetwork(networkLayout(root), 3);
      rmSync(join(root, 'sidechain', 'config', `${SIDECHAIN_GENESIS_FILE}.blob`));
      const network = startInteropNetwork(root, await freePort(), await freePort());
      const [code] = (await once(network.child, 'exit')) as [number | null];
      assert.equal(code, 1);
      assert.match(network.stderr(), /The sidechain node (stopped|exited) \(exit (code )?1\)/);
      assert.match(network.stderr(), /sidechain_genesis_block\.blob/);
      assert.match(network.output(), /mainchain node stopped/);
      for (const pid of nodePids(network.output())) assert.equal(processAlive(pid), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

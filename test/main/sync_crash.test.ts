// kill -9 of a node in the middle of block synchronization: after a restart it resumes and ends on its peer's chain,
// every height it holds the peer's block, nothing half-written, every block reported stored still there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { devValidators } from '../helpers/devnet.js';
import type { KestrelChild, KestrelChildNetwork, OnLogLine } from '../helpers/kestrel_child.js';
import { startKestrelChild, stopKestrelChildren } from '../helpers/kestrel_child.js';
import { blockIDAt, keysFile, nodeInfo, waitFor } from '../helpers/klayr_peer_world.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

/** Blocks the follower has to sync: enough that the synchronization lasts well beyond the moment it is killed. */
const BACKLOG = 36;

const start = (
  dataPath: string,
  rpcPort: number,
  network: KestrelChildNetwork,
  keys: string,
  onLine?: OnLogLine,
): KestrelChild => startKestrelChild({ dataPath, rpcPort, network, keys, ...(onLine !== undefined ? { onLine } : {}) });

describe('kill -9 during block synchronization', { timeout: 300_000 }, () => {
  it('a follower killed while it syncs restarts, resumes and holds its peer’s chain', async () => {
    const generatorRPC = await freePort();
    const generatorP2P = await freePort();
    const generator = start(
      tempDataPath(),
      generatorRPC,
      { host: '127.0.0.1', port: generatorP2P, seedPeers: [] },
      keysFile(devValidators()),
    );
    const followerPath = tempDataPath();
    const followerRPC = await freePort();
    const followerNetwork = {
      host: '127.0.0.2',
      port: await freePort(),
      seedPeers: [{ ip: '127.0.0.1', port: generatorP2P }],
    };
    const noKeys = keysFile([]);
    let follower: KestrelChild | undefined;
    try {
      await waitFor(`the generator at height ${BACKLOG}`, 180_000, async () =>
        (await nodeInfo(generatorRPC)).height >= BACKLOG ? true : undefined,
      );
      // SIGKILL as soon as the synchronization has stored its first blocks (they are written behind: a flush of several
      // blocks at a time; the node writes its log asynchronously, so the kill lands some blocks later, before or after
      // the last one: either way the restart must be consistent)
      let killed = false;
      let syncing = false;
      follower = start(followerPath, followerRPC, followerNetwork, noKeys, (line, child) => {
        if (line.includes('Triggering: BlockSynchronizationMechanism')) syncing = true;
        if (!killed && syncing && line.includes('"msg":"Synchronized blocks stored"')) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      const killedRun = follower;
      await Promise.race([
        follower.exited,
        waitFor('the follower to sync', 120_000, async () => (killed ? true : undefined)),
      ]);
      await follower.exited;
      assert.ok(killed, `killed during the synchronization:\n${killedRun.lines.slice(-10).join('\n')}`);
      assert.equal(killedRun.child.signalCode, 'SIGKILL');

      follower = start(followerPath, followerRPC, followerNetwork, noKeys);
      const target = (await nodeInfo(generatorRPC)).height;
      await waitFor('the restarted follower at the generator’s height', 120_000, async () =>
        (await nodeInfo(followerRPC)).height >= target ? true : undefined,
      );
      for (let height = 1; height <= target; height++)
        assert.equal(await blockIDAt(followerRPC, height), await blockIDAt(generatorRPC, height), `height ${height}`);
      const loaded = follower.lines.find((l) => l.includes('"msg":"Chain loaded"'));
      const reloaded = (JSON.parse(loaded ?? '{}') as { height?: number }).height ?? -1;
      // the blocks reported stored (in LMDB), not every block executed: those after the last flush are synced again
      const storedBeforeKill = Math.max(
        0,
        ...killedRun.lines
          .filter((l) => l.includes('"msg":"Synchronized blocks stored"'))
          .map((l) => (JSON.parse(l) as { height: number }).height),
      );
      assert.ok(
        reloaded >= 1 && reloaded >= storedBeforeKill,
        `the restart reloaded every block the killed run had stored (up to ${storedBeforeKill} logged): ${reloaded}`,
      );
      assert.ok(reloaded < target, `the killed run had not reached the generator's height: ${reloaded} of ${target}`);
    } finally {
      await stopKestrelChildren([follower, generator]);
    }
  });
});

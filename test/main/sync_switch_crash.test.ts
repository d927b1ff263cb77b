// kill -9 of a node in the middle of a chain switch: two nodes build two branches of one fresh genesis apart, then the
// one on the shorter branch joins the other, starts switching chains and is killed once the switch has deleted a block
// (saved in its temp table). After a restart it holds the winning chain, every block of it, with the winner's balances.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TempBlockStore } from '../../src/engine/chain/temp_block_store.js';
import type { GenesisAssetInput } from '../../src/engine/genesis.js';
import { createGenesisBlock } from '../../src/engine/genesis.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { devnetFile } from '../helpers/devnet.js';
import type { KestrelChild, KestrelChildNetwork, OnLogLine } from '../helpers/kestrel_child.js';
import { startKestrelChild, stopKestrelChildren } from '../helpers/kestrel_child.js';
import { blockIDAt, call, keysFile, nodeInfo, splitGenesisValidators, waitFor } from '../helpers/klayr_peer_world.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

/** The devnet's genesis assets with a timestamp of now: its finalized block is recent, so fast chain switching applies. */
const freshGenesisFile = (): string => {
  const config = loadConfig({ dataPath: tempDataPath() });
  const { assets } = JSON.parse(readFileSync(devnetFile('genesis_assets.json'), 'utf8')) as {
    assets: GenesisAssetInput[];
  };
  const genesis = createGenesisBlock(
    { assets, chainID: Buffer.from(config.genesis.chainID, 'hex'), timestamp: Math.floor(Date.now() / 1000) },
    applicationModules(config),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-switch-')), 'genesis.blob');
  writeFileSync(file, encodeBlock(genesis));
  return file;
};

const messageOf = (line: string): string => {
  try {
    return (JSON.parse(line) as { msg?: string }).msg ?? '';
  } catch {
    return '';
  }
};

/**
 * SIGKILL to `child` as soon as its temp table holds a block (a deletion of a chain switch committed), read every
 * millisecond from its LMDB environment opened read-only; after `timeoutMs` in any case. Says when it was killed.
 */
const killOnceSaved = async (dataPath: string, node: KestrelChild, timeoutMs: number): Promise<string> => {
  const dbs = openDatabases(dataPath, { readOnly: true });
  const saved = new TempBlockStore(dbs);
  const { child } = node;
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      dbs.root.resetReadTxn();
      if (!saved.isEmpty()) {
        child.kill('SIGKILL');
        return `with ${saved.all().length} block(s) in its temp table`;
      }
      // a switch that ended before a read saw its table: nothing to wait for
      if (node.lines.some((line) => messageOf(line) === 'Successfully switched chains. Node is now up to date')) break;
      await sleep(1);
    }
    child.kill('SIGKILL');
    return 'with no block seen in its temp table';
  } finally {
    await closeDatabases(dbs);
  }
};

interface Balance {
  tokenID: string;
  availableBalance: string;
  lockedBalances: unknown[];
}

describe('kill -9 during a chain switch', { timeout: 240_000 }, () => {
  it('a node killed in the middle of switching chains restarts on the winning chain, every block and balance', async (t) => {
    const genesisFile = freshGenesisFile();
    const { even, odd } = splitGenesisValidators();
    // 30 of the 51 genesis validators on A, 21 on B: A's branch grows faster; neither reaches the 35 that prevote
    const validators = [...even, ...odd];
    const winnerKeys = validators.slice(0, 30);
    const loserKeys = validators.slice(30);
    const winnerRPC = await freePort();
    const winnerP2P = await freePort();
    const winner = startKestrelChild({
      dataPath: tempDataPath(),
      rpcPort: winnerRPC,
      network: { host: '127.0.0.1', port: winnerP2P, seedPeers: [] },
      keys: keysFile(winnerKeys),
      genesisFile,
    });
    const loserPath = tempDataPath();
    const loserRPC = await freePort();
    const alone: KestrelChildNetwork = { host: '127.0.0.2', port: await freePort(), seedPeers: [] };
    const joined: KestrelChildNetwork = { ...alone, seedPeers: [{ ip: '127.0.0.1', port: winnerP2P }] };
    const startLoser = (network: KestrelChildNetwork, keys: string, onLine?: OnLogLine): KestrelChild =>
      startKestrelChild({
        dataPath: loserPath,
        rpcPort: loserRPC,
        network,
        keys,
        genesisFile,
        ...(onLine !== undefined ? { onLine } : {}),
      });
    let loser: KestrelChild | undefined = startLoser(alone, keysFile(loserKeys));
    try {
      // two branches: B with a few blocks of its own, A higher
      const branch = await waitFor('two branches, B with 3 blocks and A higher', 90_000, async () => {
        const [a, b] = await Promise.all([nodeInfo(winnerRPC), nodeInfo(loserRPC)]);
        return b.height >= 3 && a.height > b.height ? b : undefined;
      });
      const ownIDs = await Promise.all(Array.from({ length: branch.height }, (_, i) => blockIDAt(loserRPC, i + 1)));
      loser.child.kill('SIGTERM');
      await loser.exited;
      // B again without keys (its branch stays as it is), A as its seed: A's next block starts the switch. B's log lines
      // reach this process in bursts (the node writes them asynchronously), too late to time a kill among the switch's
      // deletions: its temp table is watched instead and B killed with SIGKILL as soon as a deleted block shows there
      // (the kill lands among the deletions or the peer's blocks, or after them: the restart must end on A's chain in
      // every case)
      const switching = startLoser(joined, keysFile([]));
      loser = switching;
      const killedWhen = await killOnceSaved(loserPath, switching, 40_000);
      await switching.exited;
      assert.equal(switching.child.signalCode, 'SIGKILL');
      const seenInTable = !killedWhen.startsWith('with no block');
      assert.ok(
        seenInTable || switching.lines.map(messageOf).includes('Switching chain'),
        `B started switching chains before it was killed:\n${switching.lines.slice(-10).join('\n')}`,
      );
      t.diagnostic(`B killed ${killedWhen}`);

      const restarted = startLoser(joined, keysFile([]));
      loser = restarted;
      // the outcome: B on A's chain up to a height A reached after the kill, every block A's
      const target = (await nodeInfo(winnerRPC)).height;
      await waitFor('the restarted node at the winner’s height', 30_000, async () =>
        (await nodeInfo(loserRPC)).height >= target ? true : undefined,
      );
      for (let height = 1; height <= target; height++)
        assert.equal(await blockIDAt(loserRPC, height), await blockIDAt(winnerRPC, height), `height ${height}`);
      // balances (the state the blocks' state roots commit to) alike on both at one tip
      const addresses = validators.map((v) => v.address);
      const balances = async (port: number) =>
        Promise.all(
          addresses.map(
            async (address) => (await call<{ balances: Balance[] }>(port, 'token_getBalances', { address })).balances,
          ),
        );
      const atOneTip = await waitFor('one tip on both nodes while their balances are read', 20_000, async () => {
        const [a, b] = await Promise.all([nodeInfo(winnerRPC), nodeInfo(loserRPC)]);
        if (a.lastBlockID !== b.lastBlockID) return undefined;
        const [winnerBalances, loserBalances] = await Promise.all([balances(winnerRPC), balances(loserRPC)]);
        const [a2, b2] = await Promise.all([nodeInfo(winnerRPC), nodeInfo(loserRPC)]);
        return a2.lastBlockID === a.lastBlockID && b2.lastBlockID === a.lastBlockID
          ? { winnerBalances, loserBalances }
          : undefined;
      });
      assert.deepEqual(atOneTip.loserBalances, atOneTip.winnerBalances);
      for (const [i, id] of ownIDs.entries())
        assert.notEqual(await blockIDAt(loserRPC, i + 1), id, `B's own block at height ${i + 1} is gone`);
      // what the restart found: with blocks in the temp table at the kill, it restored them or found them no better
      const restartLog = restarted.lines.filter((line) =>
        /Chain loaded|temp(orary)? table|successfully restored/.test(messageOf(line)),
      );
      t.diagnostic(`the restart: ${restartLog.join('\n')}`);
      if (!seenInTable) return;
      const found = restartLog.map(messageOf);
      assert.ok(
        (found.includes('Restoring blocks from temporary table') && found.includes('Chain successfully restored')) ||
          found.includes('Blocks temp table holds no better chain than the tip: cleared'),
        'the restart took up the blocks in the temp table',
      );
    } catch (error) {
      for (const [name, node] of [
        ['A', winner],
        ['B', loser],
      ] as const)
        t.diagnostic(`${name}'s last log lines:\n${node?.lines.slice(-8).join('\n')}`);
      throw error;
    } finally {
      await stopKestrelChildren([loser, winner]);
    }
  });
});

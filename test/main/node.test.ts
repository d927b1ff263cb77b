import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { klayrDevnetGenesis } from '../helpers/genesis_compare.js';
import { klayrChain } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');
const GENESIS_ID = '569d3da971979f0a5832c84784dda3f86194664e8a9cff7fea50fef243354d48';

const nodeAt = async (dataPath: string, overrides: Record<string, unknown> = {}): Promise<KestrelNode> => {
  const config = loadConfig({ dataPath, apiPort: await freePort(), ...overrides });
  // these tests look at the genesis state: no block generation
  delete config.generator;
  return new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
};

describe('kestrel node on the embedded devnet', () => {
  it('processes and commits the genesis block, serves it over WS and IPC to @klayr/api-client, and resumes on restart', async () => {
    const dataPath = tempDataPath();
    const node = await nodeAt(dataPath);
    await node.start();
    try {
      const ws = await apiClient.createWSClient(`ws://127.0.0.1:${node.config.rpc.port}/rpc-ws`);
      const info = await ws.invoke('system_getNodeInfo');
      assert.equal(info.height, 0);
      assert.equal(info.lastBlockID, GENESIS_ID);
      assert.equal(info.chainID, '04000000');
      const block = await ws.invoke('chain_getBlockByHeight', { height: 0 });
      assert.equal(block.header.id, GENESIS_ID);
      const header = klayrChain.BlockHeader.fromJSON(block.header);
      assert.equal(header.id.toString('hex'), GENESIS_ID);
      await assert.rejects(() => ws.invoke('chain_getBlockByHeight', { height: 5 }), /does not exist/);
      await assert.rejects(() => ws.invoke('chain_getBlockByID', { id: 'zz' }), /must match format "hex"/);
      await ws.disconnect();
      const ipc = await apiClient.createIPCClient(dataPath);
      assert.equal((await ipc.invoke('chain_getLastBlock')).header.id, GENESIS_ID);
      assert.deepEqual(await ipc.invoke('legacy_getLegacyBrackets'), []);
      const events = await ipc.invoke('chain_getEvents', { height: 0 });
      assert.equal(events.length, 206);
      const klayrEvents = (await klayrDevnetGenesis()).events.map((e) => new klayrChain.Event(e).toJSON());
      assert.deepEqual(events, klayrEvents);
      assert.deepEqual(await ipc.invoke('chain_getEvents', { height: 1 }), []);
      assert.equal(
        (await ipc.invoke('chain_getBlocksByIDs', { ids: [GENESIS_ID, '11'.repeat(32), GENESIS_ID] })).length,
        1,
      );
      assert.equal((await ipc.invoke('chain_getBlocksByHeightBetween', { from: 0, to: 10 })).length, 1);
      assert.deepEqual(
        (await ipc.invoke('chain_getAssetsByHeight', { height: 0 })).map((a: { module: string }) => a.module),
        ['interoperability', 'legacy', 'pos', 'token'],
      );
      assert.deepEqual(await ipc.invoke('chain_getTransactionsByHeight', { height: 0 }), []);
      const supply = await ipc.invoke('token_getTotalSupply');
      assert.equal(supply.totalSupply[0].tokenID, '0400000000000000');
      const funded = await ipc.invoke('token_getBalance', {
        address: 'klyguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad',
        tokenID: '0400000000000000',
      });
      assert.ok(BigInt(funded.availableBalance) > 0n);
      await ipc.disconnect();
    } finally {
      await node.stop();
    }
    const again = await nodeAt(dataPath);
    const started = Date.now();
    await again.start();
    try {
      assert.ok(Date.now() - started < 3000, 'a restart reloads the chain instead of reprocessing the genesis block');
      const ipc = await apiClient.createIPCClient(dataPath);
      assert.equal((await ipc.invoke('system_getNodeInfo')).lastBlockID, GENESIS_ID);
      await ipc.disconnect();
    } finally {
      // a second stop, even while the first runs, waits for it (closing LMDB twice crashed the process)
      await Promise.all([again.stop(), again.stop()]);
      await again.stop();
    }
  });

  it('refuses to start on a data path that holds a chain with another genesis block', async () => {
    const dataPath = tempDataPath();
    const node = await nodeAt(dataPath);
    await node.start();
    await node.stop();
    const { readFileSync } = await import('node:fs');
    const { devnetFile } = await import('../helpers/devnet.js');
    const { decodeBlock, encodeBlock } = await import('../../src/lib/chain/block.js');
    const other = decodeBlock(readFileSync(devnetFile('genesis_block.blob')));
    other.header.timestamp += 1;
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'kestrel-other-')), 'config.json');
    writeFileSync(join(file, '..', 'genesis.blob'), encodeBlock(other));
    writeFileSync(file, JSON.stringify({ genesis: { block: { fromFile: './genesis.blob' } } }));
    const mismatched = await nodeAt(dataPath, { config: file });
    await assert.rejects(() => mismatched.start(), /holds a chain with genesis block 569d3da9/);
    await mismatched.stop();
  });
});

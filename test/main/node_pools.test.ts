import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { encodeTransaction } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { eventRootPool } from '../../src/main/node_pools.js';
import { devValidators } from '../helpers/devnet.js';
import { transferToNewAccount } from '../helpers/devnet_transfers.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const tasks = (metrics: string, pool: string): number =>
  Number(new RegExp(`^kestrel_pool_tasks_completed_total\\{pool="${pool}"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);

describe("a devnet node's worker pools on /metrics", () => {
  it('has a roots pool on machines of more than two cores only', async () => {
    assert.equal(eventRootPool(2), undefined);
    const pool = eventRootPool(4);
    assert.ok(pool !== undefined);
    await pool.close();
  });

  it('lists every pool; the verify pool checked a posted transaction (the embedded genesis block needed no pairing)', async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    config.rpc.modes = ['http'];
    delete config.generator;
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    try {
      const scrape = async () => (await fetch(`http://127.0.0.1:${config.rpc.port}/metrics`)).text();
      const first = await scrape();
      const pools = ['verify', 'bls', 'onion', 'proofs', ...(availableParallelism() > 2 ? ['roots'] : [])];
      for (const pool of pools) {
        assert.match(first, new RegExp(`kestrel_pool_queue_depth\\{pool="${pool}"\\} 0`));
        assert.match(first, new RegExp(`kestrel_pool_task_seconds_total\\{pool="${pool}"\\}`));
      }
      // the embedded devnet genesis block's proofs of possession are known valid (main/network/checked_genesis.ts): no pairing ran
      assert.equal(
        tasks(first, 'bls'),
        0,
        "the devnet genesis validators' proofs of possession were not checked again",
      );
      assert.equal(tasks(first, 'verify'), 0);

      const tx = transferToNewAccount(devValidators()[0]!, Buffer.alloc(20, 1));
      const reply = await fetch(`http://127.0.0.1:${config.rpc.port}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'txpool_postTransaction',
          params: { transaction: encodeTransaction(tx).toString('hex') },
        }),
      });
      assert.ok(((await reply.json()) as { result?: unknown }).result, 'the transaction is admitted');
      assert.equal(tasks(await scrape(), 'verify'), 1);
    } finally {
      await node.stop();
    }
  });
});

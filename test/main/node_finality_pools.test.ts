import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { smallDevnetGenesisFile } from '../helpers/small_devnet.js';
import { tempDataPath } from '../helpers/state.js';

const tasks = (metrics: string, pool: string): number =>
  Number(new RegExp(`^kestrel_pool_tasks_completed_total\\{pool="${pool}"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);

// On a devnet genesis block with 4 genesis validators (all local here) the first block is final after about
// 6 blocks (3 prevotes, then 3 precommits), where the devnet's own (51 genesis validators) needs about 70:
// with 2-second blocks (the shortest a node generates at: slots are whole seconds) about 15 seconds.
describe('a devnet node after finality starts', () => {
  it('checks the aggregate commits its blocks carry in the bls pool: /metrics counts bls tasks once blocks carry them', {
    timeout: 120_000,
  }, async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    config.genesis.block = { fromFile: smallDevnetGenesisFile(4) };
    config.rpc.modes = ['http'];
    config.genesis.blockTime = 2;
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    try {
      const scrape = async () => (await fetch(`http://127.0.0.1:${config.rpc.port}/metrics`)).text();
      // none for the genesis block, whose proofs of possession are the devnet validators', known valid
      const atGenesis = tasks(await scrape(), 'bls');
      assert.equal(atGenesis, 0);
      const chain = node.chain!;
      let certified: number | undefined;
      for (let waited = 0; waited < 90 && certified === undefined; waited++) {
        await sleep(1000);
        const tip = chain.lastBlock().header;
        if (tip.aggregateCommit.certificateSignature.length > 0) certified = tip.height;
      }
      assert.ok(
        certified !== undefined,
        `no block carried a certificate signature (height ${chain.lastBlock().header.height}, finalized ${chain.finalizedHeight()})`,
      );
      assert.ok(chain.finalizedHeight() > 0);
      assert.ok(tasks(await scrape(), 'bls') > atGenesis, 'the aggregate commit was checked in the bls pool');
    } finally {
      await node.stop();
    }
  });
});

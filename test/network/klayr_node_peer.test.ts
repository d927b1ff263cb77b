import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { devValidators } from '../helpers/devnet.js';
import type { KlayrNode } from '../helpers/klayr_node.js';
import { startKlayrNode } from '../helpers/klayr_node.js';
import {
  blockIDAt,
  call,
  fundedKey,
  kestrelPeer,
  keysFile,
  nodeInfo,
  splitGenesisValidators,
  TOKEN_ID,
  waitFor,
  wsClient,
} from '../helpers/klayr_peer_world.js';
import { freePort } from '../helpers/ports.js';
import { smallDevnetGenesisFile, smallDevnetValidators } from '../helpers/small_devnet.js';

/**
 * Kestrel and a real Klayr Core node (klayr-framework 0.12.3 with @klayr/p2p, ../shared/tools/klayr-node)
 * on one devnet chain with 3-second blocks, each on its own loopback address.
 */

const KESTREL_HOST = '127.0.0.2';
const KLAYR_HOST = '127.0.0.1';

/** Every height from 1 to `upTo` has the same block on both nodes. */
const assertSameChain = async (a: number, b: number, upTo: number): Promise<void> => {
  for (let height = 1; height <= upTo; height++)
    assert.equal(await blockIDAt(a, height), await blockIDAt(b, height), `block at height ${height}`);
};

const stopAll = async (klayr: KlayrNode | undefined, kestrel: { stop(): Promise<void> } | undefined) => {
  await Promise.all([klayr?.stop(), kestrel?.stop()]);
};

describe('Kestrel and a real Klayr Core node on one network', { timeout: 600_000, concurrency: true }, () => {
  it('a Klayr node follows a generating Kestrel node and accepts every block, with transfers and stakes posted to its own RPC', async () => {
    const kestrel = await kestrelPeer({ host: KESTREL_HOST, keys: devValidators() });
    let klayr: KlayrNode | undefined;
    try {
      klayr = await startKlayrNode({
        host: KLAYR_HOST,
        port: await freePort(),
        rpcPort: await freePort(),
        seeds: [`${KESTREL_HOST}:${kestrel.p2pPort}`],
      });
      const klayrPort = klayr.rpcPort;
      await waitFor('the Klayr node to reach height 3', 90_000, async () =>
        (await nodeInfo(klayrPort)).height >= 3 ? true : undefined,
      );
      // transactions posted to the Klayr node travel to Kestrel (announcement, getTransactions) and come back in blocks
      const client = await wsClient(klayrPort);
      const key = (await fundedKey()).toString('hex');
      const recipient = devValidators()[9]?.address;
      const transfer = await client.transaction.create(
        {
          module: 'token',
          command: 'transfer',
          fee: '200000',
          params: { tokenID: TOKEN_ID, amount: '100000000', recipientAddress: recipient, data: 'over p2p' },
        },
        key,
      );
      const { transactionId: transferID } = await client.transaction.send(transfer);
      const stake = await client.transaction.create(
        {
          module: 'pos',
          command: 'stake',
          fee: '300000',
          nonce: (BigInt(transfer.nonce) + 1n).toString(),
          params: { stakes: [{ validatorAddress: devValidators()[3]?.address, amount: '1000000000' }] },
        },
        key,
      );
      const { transactionId: stakeID } = await client.transaction.send(stake);
      await client.disconnect();
      for (const id of [transferID, stakeID]) {
        await waitFor(`transaction ${id} in a block on both nodes`, 60_000, async () => {
          await call(kestrel.rpcPort, 'chain_getTransactionByID', { id });
          await call(klayrPort, 'chain_getTransactionByID', { id });
          return true;
        });
      }
      const height = (await nodeInfo(klayrPort)).height;
      await assertSameChain(kestrel.rpcPort, klayrPort, height);
      // a block ahead of its tip is Klayr's "fork detected" (DIFFERENT_CHAIN) and starts its sync: that is fine;
      // a ban, a deleted block or Kestrel removed from its peers is not (its own address, learnt from Kestrel's
      // getPeers answer as from any Klayr peer's, fails to connect and is removed: that is fine too)
      const wrong = klayr.lines.filter(
        (l) => /peer banned|block deleted/.test(l) || l.includes(`peer removed ${KESTREL_HOST}:`),
      );
      assert.deepEqual(wrong, []);
      const peers = await call<{ ipAddress: string }[]>(kestrel.rpcPort, 'network_getConnectedPeers');
      assert.ok(
        peers.some((p) => p.ipAddress === KLAYR_HOST),
        JSON.stringify(peers),
      );
    } finally {
      await stopAll(klayr, kestrel.node);
    }
  });

  it('Kestrel follows a generating Klayr node to the same block IDs, and a transfer posted to Kestrel is included by Klayr', async () => {
    const kestrel = await kestrelPeer({ host: KESTREL_HOST, keys: [] });
    let klayr: KlayrNode | undefined;
    try {
      klayr = await startKlayrNode({
        host: KLAYR_HOST,
        port: await freePort(),
        rpcPort: await freePort(),
        generate: true,
        seeds: [`${KESTREL_HOST}:${kestrel.p2pPort}`],
      });
      const klayrPort = klayr.rpcPort;
      await waitFor('Kestrel to reach height 3', 90_000, async () =>
        (await nodeInfo(kestrel.rpcPort)).height >= 3 ? true : undefined,
      );
      const client = await wsClient(kestrel.rpcPort);
      const tx = await client.transaction.create(
        {
          module: 'token',
          command: 'transfer',
          fee: '200000',
          params: {
            tokenID: TOKEN_ID,
            amount: '100000000',
            recipientAddress: devValidators()[11]?.address,
            data: 'to klayr',
          },
        },
        (await fundedKey()).toString('hex'),
      );
      const { transactionId } = await client.transaction.send(tx);
      await client.disconnect();
      await waitFor('the transfer in a block on both nodes', 60_000, async () => {
        await call(klayrPort, 'chain_getTransactionByID', { id: transactionId });
        await call(kestrel.rpcPort, 'chain_getTransactionByID', { id: transactionId });
        return true;
      });
      const height = Math.min((await nodeInfo(kestrel.rpcPort)).height, (await nodeInfo(klayrPort)).height);
      await assertSameChain(kestrel.rpcPort, klayrPort, height);
    } finally {
      await stopAll(klayr, kestrel.node);
    }
  });

  it('with the genesis validators split between a Klayr node and a Kestrel node, both generate, single commits cross and finality advances on both', {
    timeout: 240_000,
  }, async () => {
    // a devnet genesis block with 4 genesis validators, 2 on each node: neither holds the 3 whose blocks a
    // prevote and a precommit need, so finality needs the blocks of both
    const genesis = smallDevnetGenesisFile(4);
    const { even, odd } = splitGenesisValidators(smallDevnetValidators(4));
    const kestrel = await kestrelPeer({ host: KESTREL_HOST, keys: odd, genesis });
    let klayr: KlayrNode | undefined;
    try {
      klayr = await startKlayrNode({
        host: KLAYR_HOST,
        port: await freePort(),
        rpcPort: await freePort(),
        generate: true,
        keys: keysFile(even),
        genesis,
        seeds: [`${KESTREL_HOST}:${kestrel.p2pPort}`],
      });
      const klayrPort = klayr.rpcPort;
      // 3 prevotes, then 3 precommits: the first block is final after about 6 blocks
      const finalized = await waitFor('finality on both nodes', 150_000, async () => {
        const [a, b] = await Promise.all([nodeInfo(kestrel.rpcPort), nodeInfo(klayrPort)]);
        return a.finalizedHeight > 0 && b.finalizedHeight > 0
          ? Math.min(a.finalizedHeight, b.finalizedHeight)
          : undefined;
      });
      await assertSameChain(kestrel.rpcPort, klayrPort, finalized);
      const generators = new Set(klayr.blocks.map((b) => b.generator));
      assert.ok(
        even.some((k) => generators.has(k.address)) && odd.some((k) => generators.has(k.address)),
        'blocks of both halves',
      );
    } finally {
      await stopAll(klayr, kestrel.node);
    }
  });
});

// A node stopped several hundred blocks back catches up by block synchronization: the chain is built offline
// (test/helpers/offline_chain.ts), the follower starts on its first blocks, the serving node on all of them and
// generating at real slots on top; its next block starts the follower's synchronization (Klayr's rule).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { devValidators } from '../helpers/devnet.js';
import type { KestrelProcess } from '../helpers/kestrel_process.js';
import { spawnKestrel } from '../helpers/kestrel_process.js';
import { call, keysFile, nodeInfo, TOKEN_ID, waitFor } from '../helpers/klayr_peer_world.js';
import type { OfflineChainParams } from '../helpers/offline_chain.js';
import { copyChain, fundedSenders, offlineChain, offlineChainConfigFile } from '../helpers/offline_chain.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

/** 400 blocks, every 10th with 5 transfers; the follower was stopped at height 20. */
const CHAIN: OfflineChainParams = {
  blocks: 400,
  transferEvery: 10,
  transfersPerBlock: 5,
  maxTransactionsSize: 15_360,
  stops: [20],
};
const STOPPED_AT = 20;
const CACHE = `kestrel-test/behind-v1-b${CHAIN.blocks}-e${CHAIN.transferEvery}-t${CHAIN.transfersPerBlock}-s${STOPPED_AT}`;

interface Header {
  id: string;
  height: number;
  stateRoot: string;
}

const headerAt = async (rpcPort: number, height: number): Promise<Header> =>
  (await call<{ header: Header }>(rpcPort, 'chain_getBlockByHeight', { height })).header;

const balance = async (rpcPort: number, address: string): Promise<bigint> =>
  BigInt(
    (await call<{ availableBalance: string }>(rpcPort, 'token_getBalance', { address, tokenID: TOKEN_ID }))
      .availableBalance,
  );

interface Node {
  process: KestrelProcess;
  rpcPort: number;
  p2pPort: number;
  dataPath: string;
}

/** `kestrel start` on a copy of `cached`, RPC and P2P on `host`, with the given keys and seeds. */
const startOn = async (
  cached: string,
  host: string,
  keys: string,
  seedPeers: { ip: string; port: number }[],
): Promise<Node> => {
  const dataPath = tempDataPath();
  copyChain(cached, dataPath);
  const [rpcPort, p2pPort] = [await freePort(), await freePort()];
  const process = spawnKestrel(dataPath, {
    ...offlineChainConfigFile(CHAIN),
    rpc: { modes: ['http'], host: '127.0.0.1', port: rpcPort, allowedMethods: ['*'] },
    network: { host, port: p2pPort, seedPeers },
    generator: { keys: { fromFile: keys } },
  });
  return { process, rpcPort, p2pPort, dataPath };
};

const lastLines = (node: Node | undefined): string => node?.process.lines.slice(-15).join('\n') ?? '';

describe('a node several hundred blocks behind', { timeout: 240_000 }, () => {
  let full = '';
  let stopped = '';
  before(async () => {
    const chain = await offlineChain(CHAIN, CACHE);
    full = chain.dataPath;
    stopped = chain.at(STOPPED_AT);
  });

  const nodes: Node[] = [];
  after(async () => {
    await Promise.all(nodes.map((n) => n.process.stop()));
    for (const n of nodes) rmSync(n.dataPath, { recursive: true, force: true });
  });

  it('catches up with its peer by block synchronization: same blocks and state, syncing reported meanwhile', async () => {
    const server = await startOn(full, '127.0.0.1', keysFile(devValidators()), []);
    nodes.push(server);
    await waitFor('the serving node to answer', 60_000, async () =>
      (await nodeInfo(server.rpcPort)).height >= CHAIN.blocks ? true : undefined,
    );
    const follower = await startOn(stopped, '127.0.0.2', keysFile([]), [{ ip: '127.0.0.1', port: server.p2pPort }]);
    nodes.push(follower);
    await waitFor('the follower to answer', 60_000, async () => (await nodeInfo(follower.rpcPort)).height);
    assert.equal((await nodeInfo(follower.rpcPort)).height, STOPPED_AT, 'the follower starts where it was stopped');

    // system_getNodeInfo polled without pause while the follower catches up
    let polling = true;
    let syncingSeen = false;
    const poller = (async () => {
      while (polling) {
        const info = await call<{ syncing: boolean }>(follower.rpcPort, 'system_getNodeInfo').catch(() => undefined);
        if (info?.syncing === true) syncingSeen = true;
        await sleep(10);
      }
    })();
    let tip: Header;
    try {
      tip = await waitFor(
        `the follower at the serving node's tip (follower: ${lastLines(follower)})`,
        75_000,
        async () => {
          const { height } = await nodeInfo(server.rpcPort);
          if (height <= CHAIN.blocks) return undefined;
          const [theirs, ours] = await Promise.all([
            headerAt(server.rpcPort, height),
            headerAt(follower.rpcPort, height),
          ]);
          return theirs.id === ours.id ? theirs : undefined;
        },
        250,
      );
    } finally {
      polling = false;
      await poller;
    }
    assert.ok(syncingSeen, 'system_getNodeInfo.syncing was true during the synchronization');
    const log = follower.process.lines.join('\n');
    assert.ok(log.includes('Triggering: BlockSynchronizationMechanism'), 'block synchronization ran');
    assert.ok(log.includes('Synchronization finished.'));

    for (const height of [1, STOPPED_AT, STOPPED_AT + 1, 200, CHAIN.blocks, tip.height]) {
      const [theirs, ours] = await Promise.all([headerAt(server.rpcPort, height), headerAt(follower.rpcPort, height)]);
      assert.deepEqual(ours, theirs, `block ID and state root at height ${height}`);
    }

    // a transfer's recipient (each sender sends to the next): its balance as the serving node has it, moved from
    // the genesis one, read when both nodes are at the same tip
    const [, recipient] = fundedSenders();
    const address = addressToKlayr32(recipient?.address ?? Buffer.alloc(20));
    const genesisBalance = await waitFor('a balance read at one tip on both nodes', 20_000, async () => {
      const before = (await nodeInfo(server.rpcPort)).lastBlockID;
      const [theirs, ours] = await Promise.all([balance(server.rpcPort, address), balance(follower.rpcPort, address)]);
      const [serverAfter, followerAfter] = await Promise.all([nodeInfo(server.rpcPort), nodeInfo(follower.rpcPort)]);
      if (serverAfter.lastBlockID !== before || followerAfter.lastBlockID !== before) return undefined;
      assert.equal(ours, theirs, `the balance of ${address}`);
      return theirs;
    });
    assert.notEqual(genesisBalance, 100_000_000_000_000n, 'the transfers moved the balance');
  });
});

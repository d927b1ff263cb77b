// A node stopped several hundred blocks back catches up by block synchronization: the chain is built offline
// (test/helpers/offline_chain.ts), the follower starts on its first blocks, the serving node on all of them and
// generating at real slots on top; its next block starts the follower's synchronization (Klayr's rule).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { BEHIND_CACHE, BEHIND_CHAIN, BEHIND_STOPPED_AT } from '../helpers/behind_chain.js';
import { devValidators } from '../helpers/devnet.js';
import type { KestrelProcess } from '../helpers/kestrel_process.js';
import { spawnKestrel } from '../helpers/kestrel_process.js';
import { call, keysFile, nodeInfo, TOKEN_ID, waitFor } from '../helpers/klayr_peer_world.js';
import { copyChain, fundedSenders, offlineChain, offlineChainConfigFile } from '../helpers/offline_chain.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

/** 400 blocks, every 10th with 5 transfers; the follower was stopped at height 20. */
const CHAIN = BEHIND_CHAIN;
const STOPPED_AT = BEHIND_STOPPED_AT;
const CACHE = BEHIND_CACHE;

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

/** `kestrel start` on a copy of `cached`, RPC on loopback, P2P on `host`, with the given keys and seeds (fixed peers). */
const startOn = async (
  cached: string,
  host: string,
  keys: string,
  seedPeers: { ip: string; port: number }[],
  options: { logLevel?: string; onLine?: (line: string) => void } = {},
): Promise<Node> => {
  const dataPath = tempDataPath();
  copyChain(cached, dataPath);
  const [rpcPort, p2pPort] = [await freePort(), await freePort()];
  const child = spawnKestrel(
    dataPath,
    {
      ...offlineChainConfigFile(CHAIN),
      system: { logLevel: options.logLevel ?? 'info' },
      rpc: { modes: ['http'], host: '127.0.0.1', port: rpcPort, allowedMethods: ['*'] },
      // seeds kept connected (a plain seed is dropped after discovery, as Klayr does, and dialled again much later)
      network: { host, port: p2pPort, seedPeers, fixedPeers: seedPeers },
      generator: { keys: { fromFile: keys } },
    },
    options.onLine,
  );
  return { process: child, rpcPort, p2pPort, dataPath };
};

/** Waits until `node` answers over RPC at `height` or above. */
const answering = (node: Node, height: number, what: string) =>
  waitFor(`${what} to answer at height ${height}`, 60_000, async () =>
    (await nodeInfo(node.rpcPort)).height >= height ? true : undefined,
  );

interface LogLine {
  msg: string;
  peerId?: string;
  replaced?: boolean;
  blockId?: string;
  height?: number;
  reason?: string;
  err?: { message?: string };
}

/** What starts a synchronization or ends one before its finish (src/engine/sync/synchronizer.ts). */
const SYNC_STARTS_AND_ENDS = new Set([
  'Triggering: BlockSynchronizationMechanism',
  'Aborting synchronization mechanism',
  'Applying penalty and aborting synchronization',
  'Restarting synchronization',
  'Applying penalty and restarting synchronization',
]);

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
  afterEach(async () => {
    const stopping = nodes.splice(0);
    await Promise.all(stopping.map((n) => n.process.stop()));
    for (const n of stopping) rmSync(n.dataPath, { recursive: true, force: true });
  });

  it('catches up with its peer by block synchronization: same blocks and state, syncing reported meanwhile', async () => {
    const server = await startOn(full, '127.0.0.1', keysFile(devValidators()), []);
    nodes.push(server);
    await answering(server, CHAIN.blocks, 'the serving node');
    const follower = await startOn(stopped, '127.0.0.2', keysFile([]), [{ ip: '127.0.0.1', port: server.p2pPort }]);
    nodes.push(follower);
    // system_getNodeInfo polled without pause from the start (the RPC server listens before the P2P one)
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
    const loaded = follower.process.lines.find((line) => line.includes('"msg":"Chain loaded"'));
    assert.equal(
      (JSON.parse(loaded ?? '{}') as LogLine).height,
      STOPPED_AT,
      'the follower started where it was stopped',
    );
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
    const balanceAtTip = await waitFor('a balance read at one tip on both nodes', 20_000, async () => {
      const before = (await nodeInfo(server.rpcPort)).lastBlockID;
      const [theirs, ours] = await Promise.all([balance(server.rpcPort, address), balance(follower.rpcPort, address)]);
      const [serverAfter, followerAfter] = await Promise.all([nodeInfo(server.rpcPort), nodeInfo(follower.rpcPort)]);
      if (serverAfter.lastBlockID !== before || followerAfter.lastBlockID !== before) return undefined;
      assert.equal(ours, theirs, `the balance of ${address}`);
      return theirs;
    });
    assert.notEqual(balanceAtTip, 100_000_000_000_000n, 'the transfers moved the balance');
  });

  it('syncs from two peers of the chain and finishes from one when the other is killed in the middle', async () => {
    const generating = await startOn(full, '127.0.0.1', keysFile(devValidators()), []);
    nodes.push(generating);
    await answering(generating, CHAIN.blocks, 'the generating node');
    const serving = await startOn(full, '127.0.0.3', keysFile([]), [{ ip: '127.0.0.1', port: generating.p2pPort }]);
    nodes.push(serving);
    // the follower starts once the second serving node follows the generating one block by block
    await waitFor('the second serving node at the generating node’s tip', 60_000, async () => {
      const [g, s] = await Promise.all([nodeInfo(generating.rpcPort), nodeInfo(serving.rpcPort)]);
      return g.height > CHAIN.blocks && s.lastBlockID === g.lastBlockID ? true : undefined;
    });
    // the generating node is killed once the follower has executed a few batches' worth of blocks
    let executedBeforeKill = 0;
    let executedAtKill: number | undefined;
    const follower = await startOn(
      stopped,
      '127.0.0.2',
      keysFile([]),
      [
        { ip: '127.0.0.1', port: generating.p2pPort },
        { ip: '127.0.0.3', port: serving.p2pPort },
      ],
      {
        logLevel: 'debug',
        onLine: (line) => {
          if (!line.includes('"msg":"Block executed"')) return;
          executedBeforeKill += 1;
          if (executedBeforeKill >= 120 && executedAtKill === undefined) {
            executedAtKill = executedBeforeKill;
            generating.process.child.kill('SIGKILL');
          }
        },
      },
    );
    nodes.push(follower);
    await waitFor(`the generating node killed (follower: ${lastLines(follower)})`, 60_000, async () =>
      executedAtKill !== undefined ? true : undefined,
    );
    await generating.process.exited;
    const log = () => follower.process.lines.map((line) => JSON.parse(line) as LogLine);
    const target = log().find((l) => l.msg === 'Starting synchronizer');
    assert.ok(target?.blockId !== undefined && target.height !== undefined, 'the synchronization has started');
    const { blockId, height } = target;
    await waitFor(
      `the follower at the block that started its synchronization (${lastLines(follower)})`,
      60_000,
      async () => ((await headerAt(follower.rpcPort, height)).id === blockId ? true : undefined),
    );
    // its log line comes after its last block
    await waitFor(`the synchronization's end logged (${lastLines(follower)})`, 20_000, async () =>
      log().some((l) => l.msg === 'Synchronization finished.') ? true : undefined,
    );
    const lines = log();
    const executed = lines.filter((l) => l.msg === 'Block executed').length;
    assert.ok(executedAtKill !== undefined && executedAtKill < executed, `blocks executed after the kill`);
    // the synchronization running at the kill ran to its end in one go. Before it, an attempt may have ended at
    // once (a block that arrives before the peers' node info does: no peer announces a better chain yet, as in
    // Klayr); after it, a block that reached the follower while it ran (queued behind it) may start another.
    const finished = lines.findIndex((l) => l.msg === 'Synchronization finished.');
    assert.ok(finished >= 0, 'the first synchronization finished');
    let seen = 0;
    const killedAt = lines.findIndex((l) => l.msg === 'Block executed' && ++seen === executedAtKill);
    assert.ok(killedAt >= 0 && killedAt < finished, 'the kill came during the first synchronization that finished');
    assert.ok(
      lines.slice(0, killedAt).some((l) => l.msg === 'Triggering: BlockSynchronizationMechanism'),
      'the synchronization started before the kill',
    );
    assert.deepEqual(
      lines
        .slice(killedAt, finished)
        .filter((l) => SYNC_STARTS_AND_ENDS.has(l.msg))
        .map((l) => l.msg),
      [],
      `one synchronization: the killed peer replaced within it, no restart or new start (log: ${lines
        .map((l, i) =>
          SYNC_STARTS_AND_ENDS.has(l.msg) || i === killedAt || i === finished
            ? `${i} ${l.msg}${l.err?.message !== undefined ? ` (${l.err.message})` : ''}`
            : '',
        )
        .filter((l) => l !== '')
        .join('; ')}; the kill at ${killedAt})`,
    );
    assert.ok(!lines.some((l) => l.msg === 'Restarting block synchronization'));
    assert.ok(!lines.some((l) => l.msg === 'Applying penalty and restarting synchronization'));
    assert.ok(
      lines.some((l) => l.msg === 'Blocks request failed' && l.peerId?.startsWith('127.0.0.1:') && l.replaced === true),
      'the killed peer set aside',
    );
    for (const at of [STOPPED_AT + 1, 200, CHAIN.blocks, height]) {
      const [theirs, ours] = await Promise.all([headerAt(serving.rpcPort, at), headerAt(follower.rpcPort, at)]);
      assert.deepEqual(ours, theirs, `block ID and state root at height ${at}`);
    }
  });
});

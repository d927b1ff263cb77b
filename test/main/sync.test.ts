import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { GenesisAssetInput } from '../../src/engine/genesis.js';
import { createGenesisBlock } from '../../src/engine/genesis.js';
import { blockHeaderID, encodeBlock } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { KestrelNode } from '../../src/main/node.js';
import { RPCServer } from '../../src/rpc/server.js';
import { devnetFile } from '../helpers/devnet.js';
import { FAST_POS_WINDOWS, waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const tempFile = (name: string, content: unknown): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-sync-')), name);
  writeFileSync(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
  return file;
};

const devKeys = (): unknown[] =>
  (JSON.parse(readFileSync(devnetFile('dev-validators.json'), 'utf8')) as { keys: unknown[] }).keys;

/** A node's log lines (pino writes to this stream synchronously), with a hook on each. */
const logSink = (onLine: (line: string) => void = () => undefined) => {
  const lines: string[] = [];
  return {
    lines,
    logger: pino(
      { level: 'info' },
      {
        write: (line: string) => {
          lines.push(line);
          onLine(line);
        },
      },
    ),
  };
};

interface NodeSetup {
  dataPath?: string;
  host: string;
  port: number;
  keys: unknown[];
  seeds?: { ip: string; port: number }[];
  /** A genesis block file; the embedded devnet's when left out. */
  genesisFile?: string;
  logger: pino.Logger;
}

/** A node of a 3-second devnet on its own loopback address, not started. */
const createNode = async (setup: NodeSetup): Promise<KestrelNode> => {
  const file = tempFile('config.json', {
    genesis: {
      blockTime: 3,
      ...(setup.genesisFile !== undefined ? { block: { fromFile: setup.genesisFile } } : {}),
    },
    modules: { pos: FAST_POS_WINDOWS },
  });
  const config = loadConfig({ dataPath: setup.dataPath ?? tempDataPath(), apiPort: await freePort(), config: file });
  config.rpc = { ...config.rpc, modes: ['http'] };
  config.network = { ...config.network, host: setup.host, port: setup.port, seedPeers: setup.seeds ?? [] };
  config.generator = { keys: { fromFile: tempFile('keys.json', { keys: setup.keys }) } };
  return new KestrelNode(config, setup.logger);
};

const startNode = async (setup: NodeSetup): Promise<KestrelNode> => {
  const node = await createNode(setup);
  await node.start();
  return node;
};

const chainOf = (node: KestrelNode) => {
  const chain = node.chain;
  if (chain === undefined) throw new Error('the node is not started');
  return chain;
};

const height = (node: KestrelNode): number => chainOf(node).lastBlock().header.height;

/** Block ID and state root at each height from 1 to `to`. */
const blocksOf = (node: KestrelNode, to: number): string[] =>
  Array.from({ length: to }, (_, i) => {
    const header = chainOf(node).headerAt(i + 1);
    return header === undefined
      ? 'none'
      : `${blockHeaderID(header).toString('hex')}/${header.stateRoot.toString('hex')}`;
  });

const sameChains = (a: KestrelNode, b: KestrelNode, to: number): boolean => {
  const x = blocksOf(a, to);
  return !x.includes('none') && x.join() === blocksOf(b, to).join();
};

/** Every RPC event the nodes of this process publish, with the server that published it. */
const recordPublished = () => {
  const original = RPCServer.prototype.publish;
  const events: { server: RPCServer; name: string; id: string | undefined }[] = [];
  RPCServer.prototype.publish = function (this: RPCServer, name: string, data: unknown): void {
    const id = (data as { blockHeader?: { id?: string } } | undefined)?.blockHeader?.id;
    events.push({ server: this, name, id });
    original.call(this, name, data);
  };
  return { events, restore: () => (RPCServer.prototype.publish = original) };
};

const messages = (lines: readonly string[]): string[] => lines.map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('block synchronization between two Kestrel nodes', () => {
  it('a node started late catches up with its seed peer (block synchronization), then follows its new blocks', async () => {
    const a = await startNode({ host: '127.0.0.1', port: await freePort(), keys: devKeys(), logger: logSink().logger });
    let b: KestrelNode | undefined;
    try {
      await waitUntil('A has generated 8 blocks', async () => height(a) >= 8, 60_000);
      const syncingSeen: boolean[] = [];
      const logs = logSink((line) => {
        // pino writes synchronously, inside the synchronization: what system_getNodeInfo says at that moment
        const info = b?.registry.get('system_getNodeInfo');
        if (line.includes('Triggering') && info !== undefined)
          syncingSeen.push((info.handler({ params: {}, transport: 'http' }) as { syncing: boolean }).syncing);
      });
      const { port } = a.config.network as { port: number };
      b = await createNode({
        host: '127.0.0.2',
        port: await freePort(),
        keys: [],
        seeds: [{ ip: '127.0.0.1', port }],
        logger: logs.logger,
      });
      await b.start();
      const started = height(a);
      const nodeB = b;
      await waitUntil('B reaches the height A had when B started', async () => height(nodeB) >= started, 60_000);
      await waitUntil("B holds A's blocks", async () => sameChains(a, nodeB, started), 10_000);
      const synced = height(nodeB);
      await waitUntil(
        "B follows two more of A's blocks",
        async () => height(nodeB) >= synced + 2 && sameChains(a, nodeB, synced + 2),
        30_000,
      );
      const log = messages(logs.lines);
      assert.ok(
        log.includes('Triggering: BlockSynchronizationMechanism'),
        'the devnet genesis is old: block synchronization',
      );
      assert.ok(log.includes('Synchronization finished.'));
      assert.ok(syncingSeen.length > 0 && syncingSeen.every((s) => s), 'system_getNodeInfo reports syncing meanwhile');
      assert.equal(nodeB.syncing(), false);
    } finally {
      await Promise.all([a.stop(), b?.stop()]);
    }
  });

  it('two nodes that generated apart converge on the longer chain by fast chain switching, the shorter deleted', async () => {
    // a fresh genesis: its finalized block is within three rounds of slots, so fast chain switching applies
    const configForModules = loadConfig({ dataPath: tempDataPath() });
    const assets = (
      JSON.parse(readFileSync(devnetFile('genesis_assets.json'), 'utf8')) as { assets: GenesisAssetInput[] }
    ).assets;
    const genesis = createGenesisBlock(
      {
        assets,
        chainID: Buffer.from(configForModules.genesis.chainID, 'hex'),
        timestamp: Math.floor(Date.now() / 1000),
      },
      applicationModules(configForModules),
    );
    const genesisFile = tempFile('genesis.blob', encodeBlock(genesis));
    // the first 51 devnet keys are the genesis validators: each node generates for half of them
    const keys = devKeys().slice(0, 51);
    const portA = await freePort();
    const logsA = logSink();
    const logsB = logSink();
    const dataPathB = tempDataPath();
    const published = recordPublished();
    const a = await startNode({
      host: '127.0.0.1',
      port: portA,
      keys: keys.slice(0, 26),
      genesisFile,
      logger: logsA.logger,
    });
    let b = await startNode({
      dataPath: dataPathB,
      host: '127.0.0.2',
      port: await freePort(),
      keys: keys.slice(26),
      genesisFile,
      logger: logsB.logger,
    });
    try {
      await waitUntil('both nodes generated 3 blocks apart', async () => height(a) >= 3 && height(b) >= 3, 60_000);
      const forkA = blocksOf(a, 3);
      const forkB = blocksOf(b, 3);
      // B again, now with A as its seed
      await b.stop();
      assert.notEqual(forkA[0], forkB[0], 'two chains');
      b = await startNode({
        dataPath: dataPathB,
        host: '127.0.0.2',
        port: await freePort(),
        keys: keys.slice(26),
        seeds: [{ ip: '127.0.0.1', port: portA }],
        genesisFile,
        logger: logsB.logger,
      });
      const nodeB = b;
      await waitUntil(
        'one chain on both nodes',
        async () => {
          const h = Math.min(height(a), height(nodeB));
          return h >= 4 && sameChains(a, nodeB, h);
        },
        90_000,
      );
      const [first] = blocksOf(a, 1);
      const winner = first === forkA[0] ? 'A' : 'B';
      assert.ok(first === forkA[0] || first === forkB[0]);
      const loserLines = (winner === 'A' ? logsB : logsA).lines;
      // the chains agree up to a height once the loser has applied that far, which can be before its switch's last block
      await waitUntil(
        "the loser's switch done",
        async () => messages(loserLines).includes('Successfully switched chains. Node is now up to date'),
        30_000,
      );
      assert.ok(messages(loserLines).includes('Triggering: FastChainSwitchingMechanism'));
      const loser = winner === 'A' ? nodeB : a;
      const lostIDs = (winner === 'A' ? forkB : forkA).map((entry) => entry.split('/')[0]);
      const chainIDs = blocksOf(loser, height(loser)).map((entry) => entry.split('/')[0]);
      assert.ok(
        lostIDs.every((id) => !chainIDs.includes(id)),
        "the loser's blocks are deleted",
      );
      // and the network goes on as one: both keep generating on it
      const h = Math.min(height(a), height(nodeB));
      await waitUntil(
        'two more blocks on one chain',
        async () => {
          const now = Math.min(height(a), height(nodeB));
          return now >= h + 2 && sameChains(a, nodeB, now);
        },
        60_000,
      );
    } finally {
      published.restore();
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

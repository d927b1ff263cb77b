import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeBlock } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import type { KeyEntry } from '../../src/main/commands/keys/derive.js';
import { loadConfig } from '../../src/main/config/load.js';
import {
  localNetworkLayout,
  nodeDataPath,
  nodeKeysFile,
  nodeOverlayFile,
} from '../../src/main/local_network/layout.js';
import { monitorNetwork } from '../../src/main/local_network/monitor.js';
import { nodesWithoutGenesisValidator } from '../../src/main/local_network/node_config.js';
import { checkPorts, prepareLocalNetwork } from '../../src/main/local_network/prepare.js';
import { GENESIS_BLOCKS_WITH_CHECKED_PROOFS } from '../../src/main/network/checked_genesis.js';
import { devnetAssetsWithGenesisValidators, devnetKeys } from '../../src/main/network/devnet_genesis.js';
import type { RPCClient } from '../../src/rpc/client.js';
import { runCLI } from '../helpers/cli.js';
import type { NetworkCommandProcess } from '../helpers/network_command.js';
import { nodePids, processAlive, startNetworkCommand } from '../helpers/network_command.js';
import { httpRPC, nodeHeight, waitUntil } from '../helpers/node_process.js';
import { freePort, freePortRun, heldPort } from '../helpers/ports.js';

const made: string[] = [];
const tmp = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `kestrel-local-${name}-`));
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const readJSON = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const keysOf = (dataPath: string): KeyEntry[] => readJSON<{ keys: KeyEntry[] }>(nodeKeysFile(dataPath)).keys;
const peer = (i: number, port: number): { ip: string; port: number } => ({ ip: `127.0.0.${i + 1}`, port });

describe('kestrel network:local — the network it creates', () => {
  const root = join(tmp('layout'), 'net');
  const layout = localNetworkLayout(root);
  const ports = { firstRPCPort: 20000, p2pPort: 7667 };

  it('creates one data path per node, each with an overlay config of its address, ports, peers and keys', () => {
    const prepared = prepareLocalNetwork(layout, { nodes: 6, blockTime: 3 }, ports);
    assert.equal(prepared.created, true);
    assert.deepEqual(readdirSync(root).sort(), ['network.json', ...[0, 1, 2, 3, 4, 5].map((i) => `node-${i}`)]);
    assert.deepEqual(readJSON(layout.settings), { nodes: 6, blockTime: 3 });
    for (let i = 0; i < 6; i++) {
      const dataPath = nodeDataPath(layout, i);
      // as `kestrel start -d <node> -c <overlay>` loads it
      const config = loadConfig({ dataPath, config: nodeOverlayFile(dataPath) });
      assert.equal(config.network.host, `127.0.0.${i + 1}`);
      assert.equal(config.network.port, 7667);
      const others = [0, 1, 2, 3, 4, 5].filter((j) => j !== i);
      assert.deepEqual(
        config.network.seedPeers,
        others.map((j) => peer(j, 7667)),
      );
      // ring neighbours at distance 1 and 2: Klayr's limit of 4 fixed peers, symmetric
      const ring = others.filter((j) => [1, 2, 4, 5].includes((j - i + 6) % 6));
      assert.deepEqual(
        config.network.fixedPeers,
        ring.map((j) => peer(j, 7667)),
      );
      assert.equal(config.rpc.port, 20000 + i);
      assert.equal(config.rpc.host, '127.0.0.1');
      assert.deepEqual(config.rpc.modes, ['ipc', 'ws', 'http']);
      assert.deepEqual(config.rpc.allowedMethods, ['*']);
      assert.equal(config.genesis.chainID, '04000000');
      assert.equal(config.genesis.blockTime, 3);
      assert.equal((config.modules.pos as { failSafeInactiveWindow?: number }).failSafeInactiveWindow, 144000);
      assert.equal(config.generator?.keys.fromFile, nodeKeysFile(dataPath));
    }
  });

  it("splits the devnet's 103 validators among the nodes: node i gets entries i, i+N, …, every one exactly once", () => {
    const all = devnetKeys();
    const shares = [0, 1, 2, 3, 4, 5].map((i) => keysOf(nodeDataPath(layout, i)));
    for (const [i, share] of shares.entries())
      assert.deepEqual(
        share,
        all.filter((_, k) => k % 6 === i),
      );
    const addresses = shares.flat().map((k) => k.address);
    assert.equal(addresses.length, 103);
    assert.deepEqual(new Set(addresses), new Set(all.map((k) => k.address)));
  });

  it('a second run reuses the network: keys and node data kept, this run’s ports in the overlays', () => {
    const keysBefore = readFileSync(nodeKeysFile(nodeDataPath(layout, 2)));
    mkdirSync(join(nodeDataPath(layout, 0), 'data'));
    writeFileSync(join(nodeDataPath(layout, 0), 'data', 'chain'), 'blocks');
    const prepared = prepareLocalNetwork(layout, {}, { firstRPCPort: 30000, p2pPort: 9000 });
    assert.equal(prepared.created, false);
    assert.deepEqual(prepared.settings, { nodes: 6, blockTime: 3 });
    assert.deepEqual(readFileSync(nodeKeysFile(nodeDataPath(layout, 2))), keysBefore);
    assert.equal(readFileSync(join(nodeDataPath(layout, 0), 'data', 'chain'), 'utf8'), 'blocks');
    const overlay = readJSON<{ rpc: { port: number }; network: { port: number; seedPeers: unknown[] } }>(
      nodeOverlayFile(nodeDataPath(layout, 3)),
    );
    assert.equal(overlay.rpc.port, 30003);
    assert.equal(overlay.network.port, 9000);
    assert.deepEqual(overlay.network.seedPeers[0], peer(0, 9000));
    // repeating the saved settings is no change
    assert.equal(prepareLocalNetwork(layout, { nodes: 6, blockTime: 3 }, ports).created, false);
  });

  it('refuses a changed --nodes or --block-time on a saved network, changing nothing', () => {
    const overlayBefore = readFileSync(nodeOverlayFile(nodeDataPath(layout, 0)), 'utf8');
    assert.throws(
      () => prepareLocalNetwork(layout, { nodes: 4 }, { firstRPCPort: 40000, p2pPort: 7667 }),
      /has 6 nodes; --nodes 4 applies only when a network is created/,
    );
    assert.throws(
      () => prepareLocalNetwork(layout, { blockTime: 5 }, { firstRPCPort: 40000, p2pPort: 7667 }),
      /runs with 3-second blocks; --block-time 5 applies only when a network is created/,
    );
    assert.equal(readFileSync(nodeOverlayFile(nodeDataPath(layout, 0)), 'utf8'), overlayBefore);
    assert.equal(existsSync(nodeDataPath(layout, 6)), false);
  });

  it('refuses a directory that holds something else, writing nothing', () => {
    const dir = tmp('other');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    assert.throws(
      () => prepareLocalNetwork(localNetworkLayout(dir), { nodes: 2 }, ports),
      /is not empty and holds no local network/,
    );
    assert.deepEqual(readdirSync(dir), ['notes.txt']);
  });

  it('refuses RPC ports past 65535 and a P2P port among the RPC ports', () => {
    assert.throws(
      () => checkPorts(10, { firstRPCPort: 65530, p2pPort: 7667 }),
      /--rpc-port 65530 leaves no room for 10 nodes: node 9 would serve on port 65539/,
    );
    assert.throws(
      () => checkPorts(3, { firstRPCPort: 7666, p2pPort: 7667 }),
      /--p2p-port 7667 is one of the nodes' RPC ports/,
    );
    assert.doesNotThrow(() => checkPorts(3, { firstRPCPort: 7664, p2pPort: 7667 }));
  });
});

describe('kestrel network:local — a genesis block of its own (--validators)', () => {
  const root = join(tmp('validators'), 'net');
  const layout = localNetworkLayout(root);
  const ports = { firstRPCPort: 20000, p2pPort: 7667 };
  const genesisOf = (dataPath: string): Buffer =>
    readFileSync(loadConfig({ dataPath, config: nodeOverlayFile(dataPath) }).genesis.block.fromFile as string);

  it('saves N in network.json and gives every node the same devnet genesis block with the first N dev validators as genesis validators, named by its saved config', () => {
    prepareLocalNetwork(layout, { nodes: 3, blockTime: 3, validators: 4 }, ports);
    assert.deepEqual(readJSON(layout.settings), { nodes: 3, blockTime: 3, validators: 4 });
    const expected = devnetAssetsWithGenesisValidators(4).find((a) => a.module === 'pos');
    for (let i = 0; i < 3; i++) {
      const dataPath = nodeDataPath(layout, i);
      // the saved config names it, with or without the overlay; the devnet's own file stays beside it
      assert.equal(
        loadConfig({ dataPath }).genesis.block.fromFile,
        join(dataPath, 'config', 'local_genesis_block.blob'),
      );
      assert.ok(genesisOf(dataPath).equals(genesisOf(nodeDataPath(layout, 0))), `node ${i}: the same block`);
      assert.ok(existsSync(join(dataPath, 'config', 'genesis_block.blob')));
    }
    const block = decodeBlock(genesisOf(nodeDataPath(layout, 0)));
    const pos = block.assets.find((a) => a.module === 'pos');
    assert.ok(pos !== undefined && expected !== undefined);
    assert.ok(pos.data.equals(codec.encode(expected.schema, codec.fromJSON(expected.schema, expected.data))));
  });

  it('every node holds at least one of the N genesis validators: node i holds validator i (node 0 here also validator 3)', () => {
    const genesisValidators = new Set(
      devnetKeys()
        .slice(0, 4)
        .map((k) => k.address),
    );
    const held = [0, 1, 2].map((i) => keysOf(nodeDataPath(layout, i)).filter((k) => genesisValidators.has(k.address)));
    assert.deepEqual(
      held.map((keys) => keys.length),
      [2, 1, 1],
    );
    assert.deepEqual(nodesWithoutGenesisValidator(3, 4), []);
    // more nodes than genesis validators: the last ones only follow
    assert.deepEqual(nodesWithoutGenesisValidator(5, 2), [2, 3, 4]);
  });

  it('refuses a changed --validators, or --validators on a network of the devnet genesis block, changing nothing', () => {
    const before = readFileSync(layout.settings, 'utf8');
    assert.throws(
      () => prepareLocalNetwork(layout, { validators: 5 }, ports),
      /runs a devnet genesis block with 4 genesis validators; --validators 5 applies only when a network is created/,
    );
    assert.equal(prepareLocalNetwork(layout, { validators: 4 }, ports).created, false);
    assert.equal(readFileSync(layout.settings, 'utf8'), before);
    const plain = localNetworkLayout(join(tmp('plain'), 'net'));
    prepareLocalNetwork(plain, { nodes: 1 }, ports);
    assert.throws(
      () => prepareLocalNetwork(plain, { validators: 4 }, ports),
      /runs the devnet's genesis block; --validators 4 applies only when a network is created/,
    );
  });

  it('refuses more genesis validators than Klayr allows, writing nothing', () => {
    const dir = join(tmp('too-many'), 'net');
    assert.throws(
      () => prepareLocalNetwork(localNetworkLayout(dir), { nodes: 2, validators: 52 }, ports),
      /1 to 51 genesis validators/,
    );
    assert.equal(existsSync(dir), false);
  });
});

describe('kestrel network:local — the command line', () => {
  const refused = async (args: string[], message: RegExp): Promise<void> => {
    const root = join(tmp('flags'), 'net');
    const { code, stderr } = await runCLI('network:local', '-d', root, ...args);
    assert.equal(code, 1, stderr);
    assert.match(stderr, message);
    assert.equal(existsSync(root), false, 'nothing created');
  };

  it('--help describes every flag', async () => {
    const { code, stdout } = await runCLI('network:local', '--help');
    assert.equal(code, 0);
    for (const flag of ['--data-path', '--nodes', '--rpc-port', '--p2p-port', '--block-time', '--validators'])
      assert.match(stdout, new RegExp(flag));
  });

  it('refuses 0 nodes, more nodes than validators, ports out of range and a genesis validator count Klayr refuses', async () => {
    await refused(['--nodes', '0'], /--nodes must be an integer from 1 to 103/);
    await refused(['--nodes', '104'], /--nodes must be an integer from 1 to 103/);
    await refused(['--rpc-port', '70000'], /--rpc-port must be an integer port between 1024 and 65535/);
    await refused(['--p2p-port', '80'], /--p2p-port must be an integer port between 1024 and 65535/);
    await refused(['--block-time', '2'], /--block-time must be at least 3 seconds/);
    await refused(['--validators', '0'], /--validators must be an integer from 1 to 51/);
    await refused(['--validators', '52'], /--validators must be an integer from 1 to 51/);
    await refused(['--nodes', '20', '--rpc-port', '65530'], /leaves no room for 20 nodes/);
  });

  it('refuses an RPC port in use, before creating anything', async () => {
    const busy = await heldPort();
    try {
      await refused(
        ['--nodes', '2', '--rpc-port', String(busy.port)],
        new RegExp(`Port ${busy.port} on 127.0.0.1 is already in use \\(--rpc-port: node 0's JSON-RPC\\)`),
      );
    } finally {
      busy.close();
    }
  });
});

/** A node client answering system_getNodeInfo from a script: the next entry on each call (the last one from then on); undefined fails the call. */
const scriptedNode = (script: ({ height: number; finalizedHeight: number } | undefined)[]): RPCClient => {
  let call = 0;
  return {
    invoke: async () => {
      const info = script[Math.min(call++, script.length - 1)];
      if (info === undefined) throw new Error('no answer');
      return { ...info, chainID: '04000000', lastBlockID: '00' };
    },
    close: async () => undefined,
  };
};

describe('kestrel network:local — its reports', () => {
  it("prints each node's height periodically ('?' for a node that does not answer), and finality's first advance once", async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const reported = monitorNetwork({
      clients: [
        scriptedNode([
          { height: 5, finalizedHeight: 2 },
          { height: 6, finalizedHeight: 2 },
          { height: 7, finalizedHeight: 3 },
          { height: 8, finalizedHeight: 4 },
        ]),
        scriptedNode([undefined]),
      ],
      startedAt: Date.now() - 42_000,
      finalizedAtStart: 2,
      statusIntervalMs: 30,
      pollIntervalMs: 5,
      progress: (line) => lines.push(line),
      signal: stop.signal,
    });
    await waitUntil('two status lines', async () => lines.filter((l) => l.startsWith('Status')).length >= 2, 5_000);
    stop.abort();
    await reported;
    const finality = lines.filter((l) => l.startsWith('Finality'));
    assert.equal(finality.length, 1);
    assert.match(finality[0] as string, /^Finality advanced: finalized height 3 \(took 42 s\)$/);
    assert.match(
      lines.find((l) => l.startsWith('Status')) as string,
      /^Status: node 0 at \d+, node 1 at \?; finalized height \d \(node 0\)$/,
    );
    const count = lines.length;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(lines.length, count, 'nothing reported after the abort');
  });
});

const UP = /The network is up: all 3 nodes answer/;

/** Starts `network:local` with 3 nodes and 3-second blocks on free ports (and the flags given). */
const startLocalNetwork = async (
  root: string,
  ...flags: string[]
): Promise<{ network: NetworkCommandProcess; rpcPorts: number[] }> => {
  const first = await freePortRun(3);
  const network = startNetworkCommand(
    'network:local',
    '--nodes',
    '3',
    '--data-path',
    root,
    '--rpc-port',
    String(first),
    '--p2p-port',
    String(await freePort()),
    '--block-time',
    '3',
    ...flags,
  );
  return { network, rpcPorts: [first, first + 1, first + 2] };
};

describe('kestrel network:local — three nodes, clean stop', { timeout: 300_000 }, () => {
  const root = join(tmp('run'), 'net');
  let network: NetworkCommandProcess | undefined;
  after(async () => {
    await network?.stop('SIGINT');
  });

  it('starts three nodes that all answer, node 0 generates, and SIGINT stops them all with exit code 0', async () => {
    const started = await startLocalNetwork(root);
    network = started.network;
    await network.waitForLine(UP, 180_000);
    for (const port of started.rpcPorts)
      assert.equal(((await httpRPC(port, 'system_getNodeInfo')) as { chainID: string }).chainID, '04000000');
    const node0 = started.rpcPorts[0] as number;
    await waitUntil('node 0 reaches height 3', async () => ((await nodeHeight(node0)) ?? 0) >= 3, 90_000);

    const pids = nodePids(network.output());
    assert.equal(pids.length, 3);
    const stopStart = Date.now();
    assert.deepEqual(await network.stop('SIGINT'), { code: 0, signal: null });
    assert.ok(Date.now() - stopStart < 45_000, 'stopped within the grace period');
    network = undefined;
    for (let i = 0; i < 3; i++) {
      assert.match(started.network.output(), new RegExp(`node ${i} stopped \\(exit code 0\\)`));
      assert.equal(processAlive(pids[i] as number), false, `node ${i} still runs`);
      assert.equal(existsSync(join(root, `node-${i}`, 'kestrel.lock')), false);
    }
  });
});

describe('kestrel network:local — one chain everywhere, finality', {
  timeout: 300_000,
}, () => {
  const root = join(tmp('finality'), 'net');
  let network: NetworkCommandProcess | undefined;
  after(async () => {
    await network?.stop('SIGINT');
  });

  it('all nodes hold the same block at a common height, and finality advances within 2 minutes', async () => {
    // 4 genesis validators, each node generating for at least one (node 0 for two): finality after about
    // 6 blocks, where the devnet's own genesis block (51 genesis validators) needs about 70
    const started = await startLocalNetwork(root, '--validators', '4');
    network = started.network;
    await network.waitForLine(UP, 180_000);
    const line = await network.waitForLine(/Finality advanced: finalized height \d+/, 120_000);
    assert.match(network.output(), /3 nodes of the devnet chain \(a devnet genesis block with 4 genesis validators\)/);
    const finalized = Number(/finalized height (\d+)/.exec(line)?.[1]);
    assert.ok(finalized > 0);
    const info = (port: number) =>
      httpRPC(port, 'system_getNodeInfo') as Promise<{ height: number; finalizedHeight: number }>;
    const heights = await Promise.all(started.rpcPorts.map(async (port) => (await info(port)).height));
    const common = Math.min(...heights);
    const ids = await Promise.all(
      started.rpcPorts.map(
        async (port) =>
          ((await httpRPC(port, 'chain_getBlockByHeight', { height: common })) as { header: { id: string } }).header.id,
      ),
    );
    assert.equal(new Set(ids).size, 1, `block IDs at height ${common}: ${ids.join(', ')}`);
    const genesisID = (
      (await httpRPC(started.rpcPorts[0] as number, 'chain_getBlockByHeight', { height: 0 })) as {
        header: { id: string };
      }
    ).header.id;
    assert.equal(GENESIS_BLOCKS_WITH_CHECKED_PROOFS.has(genesisID), false, 'the network’s own genesis block');
    for (const port of started.rpcPorts) assert.ok((await info(port)).finalizedHeight > 0);
    assert.match(network.output(), /Status: node 0 at \d+, node 1 at \d+, node 2 at \d+; finalized height \d+/);
    assert.deepEqual(await network.stop('SIGINT'), { code: 0, signal: null });
    network = undefined;
  });
});

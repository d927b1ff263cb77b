import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket, WebSocketServer } from 'ws';
import { startNetworkCommand } from '../test/helpers/network_command.js';
import { freePort, freePortRun } from '../test/helpers/ports.js';
import { durableCommitTimes } from './durable_commit.js';
import { printAndSave } from './harness.js';

const NODES = 3;
/** Blocks timed on every node (after the first few, while the nodes still connect, are skipped). */
const BLOCKS = Number(process.env.KESTREL_PROPAGATION_BLOCKS ?? 20);
const SKIPPED_BLOCKS = 3;
const BLOCK_TIME = 3;
const ROUND_TRIPS = 500;

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

const summary = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    medianMs: Number(quantile(sorted, 0.5).toFixed(3)),
    p95Ms: Number(quantile(sorted, 0.95).toFixed(3)),
    maxMs: Number(sorted[sorted.length - 1].toFixed(3)),
  };
};

/**
 * The baseline: a bare WebSocket (ws, no framing of ours) from 127.0.0.1 to an echo server on
 * 127.0.0.2, round trips of a `bytes`-long text message: what any block relay between those two
 * hosts pays at least, twice.
 */
const bareRoundTrips = async (bytes: number): Promise<number[]> => {
  const server = new WebSocketServer({ host: '127.0.0.2', port: 0, perMessageDeflate: false });
  await new Promise((r) => server.once('listening', r));
  server.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.2:${port}`, { localAddress: '127.0.0.1', perMessageDeflate: false });
  await new Promise((r, j) => {
    client.once('open', r);
    client.once('error', j);
  });
  const message = 'x'.repeat(bytes);
  const times: number[] = [];
  try {
    for (let i = 0; i < ROUND_TRIPS + 50; i++) {
      const started = performance.now();
      await new Promise((r) => {
        client.once('message', r);
        client.send(message);
      });
      if (i >= 50) times.push(performance.now() - started);
    }
  } finally {
    client.close();
    await new Promise((r) => server.close(r));
  }
  return times;
};

interface Arrival {
  height: number;
  /** ms (performance.now) at which each node's chain_newBlock reached this process. */
  at: (number | undefined)[];
}

/** Subscribes to chain_newBlock on node i's WS RPC, recording when each block's event arrives. */
const watchNode = async (port: number, node: number, arrivals: Map<string, Arrival>): Promise<WebSocket> => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc-ws`, { perMessageDeflate: false });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  ws.on('message', (data) => {
    const at = performance.now();
    const message = JSON.parse(data.toString()) as {
      method?: string;
      params?: { blockHeader?: { id: string; height: number } };
    };
    const header = message.params?.blockHeader;
    if (message.method !== 'chain_newBlock' || header === undefined) return;
    const arrival = arrivals.get(header.id) ?? { height: header.height, at: Array(NODES).fill(undefined) };
    arrival.at[node] = at;
    arrivals.set(header.id, arrival);
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { topics: ['chain_newBlock'] } }));
  return ws;
};

/**
 * Block propagation across 3 local Kestrel nodes (issue 21): `kestrel network:local --nodes 3` (each node
 * a process of its own on 127.0.0.1/.2/.3, every node the peer of the others), each node's chain_newBlock
 * watched over WS from this process. For each block, the node whose event came first generated it (it
 * commits before it sends the block on); the latency of each other node is its event's arrival minus the
 * generator's (the WS publish path is the same on both sides, so it cancels out). Baseline in the same
 * run: bare WebSocket round trips between 127.0.0.1 and 127.0.0.2 (the transport), and durable LMDB
 * write transactions on the same disk (each node commits a block in one before it publishes it).
 */
export const propagationBench = async () => {
  const load = loadavg().map((l) => Number(l.toFixed(2)));
  const bare = summary(await bareRoundTrips(600));
  const fsync = summary(durableCommitTimes());
  const root = mkdtempSync(join(tmpdir(), 'kestrel-propagation-'));
  const rpcPort = await freePortRun(NODES);
  const network = startNetworkCommand(
    'network:local',
    '--nodes',
    String(NODES),
    '--block-time',
    String(BLOCK_TIME),
    '-d',
    root,
    '--rpc-port',
    String(rpcPort),
    '--p2p-port',
    String(await freePort()),
  );
  const arrivals = new Map<string, Arrival>();
  const sockets: WebSocket[] = [];
  try {
    await network.waitForLine(/The network is up/, 180_000);
    for (let i = 0; i < NODES; i++) sockets.push(await watchNode(rpcPort + i, i, arrivals));
    const complete = () =>
      [...arrivals.values()].filter((a) => a.at.every((t) => t !== undefined)).map((a) => a.height);
    const deadline = Date.now() + (BLOCKS + SKIPPED_BLOCKS + 10) * BLOCK_TIME * 1000 * 2;
    while (complete().length < SKIPPED_BLOCKS + BLOCKS) {
      if (Date.now() > deadline)
        throw new Error(`only ${complete().length} blocks reached all ${NODES} nodes:\n${network.output()}`);
      await sleep(200);
    }
  } finally {
    for (const ws of sockets) ws.close();
    await network.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const timed = [...arrivals.values()]
    .filter((a) => a.at.every((t) => t !== undefined))
    .sort((a, b) => a.height - b.height)
    .slice(SKIPPED_BLOCKS, SKIPPED_BLOCKS + BLOCKS);
  const latencies: number[] = [];
  const generators = new Array<number>(NODES).fill(0);
  for (const a of timed) {
    const times = a.at as number[];
    const first = Math.min(...times);
    generators[times.indexOf(first)] += 1;
    for (const t of times) if (t !== first) latencies.push(t - first);
  }
  const propagation = summary(latencies);
  const results = [
    {
      name: `block propagation, generator's commit to another node's commit (${NODES} nodes, median)`,
      baseline: 'bare WebSocket round trip 127.0.0.1 -> 127.0.0.2, 600-byte message (median)',
      oursOpsPerSec: propagation.medianMs,
      baselineOpsPerSec: bare.medianMs,
      ratio: Number((propagation.medianMs / bare.medianMs).toFixed(2)),
    },
    {
      name: `block propagation (${NODES} nodes, median)`,
      baseline: 'one durable LMDB write transaction of 1 KB on the same disk (median; every node commits so)',
      oursOpsPerSec: propagation.medianMs,
      baselineOpsPerSec: fsync.medianMs,
      ratio: Number((propagation.medianMs / fsync.medianMs).toFixed(2)),
    },
    {
      name: `block propagation (${NODES} nodes, p95)`,
      baseline: 'bare WebSocket round trip (p95)',
      oursOpsPerSec: propagation.p95Ms,
      baselineOpsPerSec: bare.p95Ms,
      ratio: Number((propagation.p95Ms / bare.p95Ms).toFixed(2)),
    },
  ];
  printAndSave('propagation', results, {
    unit: 'milliseconds (lower is better; ratio = propagation / baseline)',
    propagation,
    bareRoundTrip: bare,
    durableCommit: fsync,
    blocksByGenerator: generators,
    heights: timed.map((a) => a.height),
    loadAverage: load,
  });
  console.log(
    `  propagation median ${propagation.medianMs} ms, p95 ${propagation.p95Ms} ms over ${propagation.samples} deliveries; ` +
      `bare WS round trip median ${bare.medianMs} ms, p95 ${bare.p95Ms} ms; ` +
      `durable LMDB commit median ${fsync.medianMs} ms, p95 ${fsync.p95Ms} ms`,
  );
  return results;
};

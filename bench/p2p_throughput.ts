// P2P throughput: Kestrel's P2P server against @klayr/p2p's own P2P server (as klayr-framework configures it),
// both on this process's main thread, driven by the same lean client on a worker thread: postTransactionsAnnouncement-sized messages one way, and
// getTransactions-sized request/response round trips with 32 in flight. The message-rate penalty is lifted on
// both servers (wsMaxMessageRate) so that the flood measures throughput, not the ban.

import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { P2P } from '../src/network/p2p/p2p.js';
import { type ComparisonResult, medianBy, printAndSave } from './harness.js';

const require = createRequire(import.meta.url);
interface KlayrP2P {
  start(): Promise<void>;
  stop(): Promise<void>;
  on(event: string, listener: (arg: { end(data: Buffer): void }) => void): void;
}

const { P2P: KlayrP2PClass } = require('@klayr/p2p') as { P2P: new (config: Record<string, unknown>) => KlayrP2P };
const { customNodeInfoSchema } = require('klayr-framework/dist-node/engine/network/schema.js') as {
  customNodeInfoSchema: unknown;
};

const MESSAGES = Number(process.env.KESTREL_BENCH_P2P_MESSAGES ?? 20_000);
const REQUESTS = Number(process.env.KESTREL_BENCH_P2P_REQUESTS ?? 10_000);
const IN_FLIGHT = 32;
// many short rounds, alternating which server goes first: the machine's load changes from second to second
const ROUNDS = Number(process.env.KESTREL_BENCH_ROUNDS ?? 9);

const nodeInfo = {
  chainID: Buffer.from('04000000', 'hex'),
  networkVersion: '5.1',
  advertiseAddress: true,
  options: { height: 1, maxHeightPrevoted: 0, blockVersion: 2, lastBlockID: Buffer.alloc(32), legacy: [] },
};
const transactionAnswer = Buffer.alloc(150, 9);

interface Target {
  readonly received: number;
}

/** Below Linux's ephemeral port range, so that no outbound connection holds it. */
const port = (): number => 10000 + Math.floor(Math.random() * 22768);

/** A client on a worker thread, connected to one server. */
const startClient = async (host: string, port: number): Promise<Worker> => {
  const worker = new Worker(new URL('./p2p_client_worker.js', import.meta.url));
  worker.postMessage({ connect: { host, port, from: '127.0.0.1' } });
  await once(worker, 'message');
  return worker;
};

/** Time for `count` messages to arrive at the server, in messages per second. */
const messageRate = async (client: Worker, target: Target, count: number): Promise<number> => {
  const goal = target.received + count;
  const started = performance.now();
  client.postMessage({ send: count });
  while (target.received < goal) await new Promise((r) => setImmediate(r));
  return (count * 1000) / (performance.now() - started);
};

/** `count` requests with IN_FLIGHT outstanding, in round trips per second (timed by the client). */
const requestRate = async (client: Worker, count: number): Promise<number> => {
  client.postMessage({ requests: count });
  const [answer] = (await once(client, 'message')) as [{ rate: number }];
  return answer.rate;
};

export const p2pThroughputBench = async (): Promise<ComparisonResult[]> => {
  const kestrelPort = port();
  const kestrel = new P2P({
    hostIp: '127.0.0.2',
    port: kestrelPort,
    nodeInfo,
    seedPeers: [],
    fixedPeers: [],
    whitelistedPeers: [],
    blacklistedIPs: [],
    previousPeers: [],
    maxOutboundConnections: 20,
    maxInboundConnections: 100,
    wsMaxPayload: 3048576,
    secret: 1,
    wsMaxMessageRate: 1e9,
  });
  const klayrPort = port();
  const klayr = new KlayrP2PClass({
    hostIp: '127.0.0.3',
    port: klayrPort,
    nodeInfo: { ...nodeInfo, nonce: '' },
    seedPeers: [],
    customNodeInfoSchema,
    secret: 2,
    wsMaxMessageRate: 1e9,
  });
  await kestrel.start();
  await klayr.start();
  const counts = { kestrel: 0, klayr: 0 };
  kestrel.on('messageReceived', () => {
    counts.kestrel += 1;
  });
  kestrel.on('requestReceived', (request) => request.end(transactionAnswer));
  klayr.on('EVENT_MESSAGE_RECEIVED', () => {
    counts.klayr += 1;
  });
  klayr.on('EVENT_REQUEST_RECEIVED', (request) => request.end(transactionAnswer));
  const kestrelTarget: Target = {
    get received() {
      return counts.kestrel;
    },
  };
  const klayrTarget: Target = {
    get received() {
      return counts.klayr;
    },
  };
  const ours = await startClient('127.0.0.2', kestrelPort);
  const theirs = await startClient('127.0.0.3', klayrPort);
  try {
    // warm-up
    await messageRate(ours, kestrelTarget, MESSAGES / 4);
    await messageRate(theirs, klayrTarget, MESSAGES / 4);
    await requestRate(ours, REQUESTS / 4);
    await requestRate(theirs, REQUESTS / 4);
    const messageRounds: { ours: number; base: number }[] = [];
    const requestRounds: { ours: number; base: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const first = round % 2 === 0;
      const m1 = await messageRate(first ? ours : theirs, first ? kestrelTarget : klayrTarget, MESSAGES);
      const m2 = await messageRate(first ? theirs : ours, first ? klayrTarget : kestrelTarget, MESSAGES);
      messageRounds.push(first ? { ours: m1, base: m2 } : { ours: m2, base: m1 });
      const r1 = await requestRate(first ? ours : theirs, REQUESTS);
      const r2 = await requestRate(first ? theirs : ours, REQUESTS);
      requestRounds.push(first ? { ours: r1, base: r2 } : { ours: r2, base: r1 });
    }
    const result = (name: string, rounds: { ours: number; base: number }[]): ComparisonResult => {
      const median = medianBy(rounds, (r) => r.ours / r.base);
      return {
        name,
        baseline: '@klayr/p2p P2P server',
        oursOpsPerSec: Math.round(median.ours),
        baselineOpsPerSec: Math.round(median.base),
        ratio: Number((median.ours / median.base).toFixed(2)),
      };
    };
    const results = [
      result(`${MESSAGES} postTransactionsAnnouncement messages (msgs/s)`, messageRounds),
      result(`getTransactions round trips, ${IN_FLIGHT} in flight (req/s)`, requestRounds),
    ];
    printAndSave('p2p', results, { rounds: ROUNDS, messages: MESSAGES, requests: REQUESTS });
    return results;
  } finally {
    await ours.terminate();
    await theirs.terminate();
    await kestrel.stop();
    await klayr.stop();
  }
};

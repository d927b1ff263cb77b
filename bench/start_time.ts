import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import type { NetworkName } from '../src/main/config/networks.js';
import { networkDir } from '../src/main/config/networks.js';
import type { ComparisonResult } from './harness.js';
import { medianBy, printAndSave } from './harness.js';
import { callRPC, cpuSecondsOf, freshDataPath, removeDataPath, startNodeProcess } from './node_process.js';
import { freePort } from './rpc_load.js';

const ROUNDS = Number(process.env.KESTREL_BENCH_ROUNDS ?? 3);
const NETWORKS = (process.env.KESTREL_BENCH_NETWORKS ?? 'mainnet,testnet,devnet').split(',') as NetworkName[];
/** The goal for a first start on the mainnet preset, in seconds to the first RPC answer. */
const MAINNET_FIRST_START_GOAL_S = 3;

/**
 * The baseline: the least a node process does before its first answer. `node -e` reads and parses
 * the network's preset config, listens on the port with node:http and answers system_getNodeInfo
 * (a fixed answer); polled exactly as the node is.
 */
const BASELINE_SCRIPT = `
const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');
const [dir, port] = process.argv.slice(1);
const config = JSON.parse(readFileSync(dir + 'config.json', 'utf8'));
createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { height: 0, chainID: config.genesis.chainID } }));
  });
}).listen(Number(port), '127.0.0.1');
`;

const baselineStart = async (network: NetworkName): Promise<{ seconds: number; cpu: number | undefined }> => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', BASELINE_SCRIPT, networkDir(network), String(port)], {
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the baseline process exited with ${child.exitCode}`);
      const info = await callRPC(port, 'system_getNodeInfo').catch(() => undefined);
      if (info !== undefined) return { seconds: (performance.now() - started) / 1000, cpu: cpuSecondsOf(child.pid) };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGTERM');
  }
};

interface Start {
  seconds: number;
  baseline: number;
  /** CPU seconds of the node's process (all threads) and of the baseline's, to the first answer. */
  cpu: number | undefined;
  baselineCpu: number | undefined;
}

/** The node's start on `dataPath` (first start when it is empty) and the baseline right after it. */
const measureStart = async (network: NetworkName, dataPath: string, first: boolean): Promise<Start> => {
  const node = await startNodeProcess({
    network,
    dataPath,
    port: await freePort(),
    allowedMethods: ['system'],
    logLevel: 'info',
    timeoutMs: 300_000,
  });
  try {
    // the log lines before the first answer may reach the pipe just after it
    for (let waited = 0; !node.log().includes('Chain loaded') && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const processed = node.log().includes('Processing the genesis block');
    // the genesis block is processed on the first start only: a restart reloads the committed chain
    if (processed !== first)
      throw new Error(
        `${network} ${first ? 'first start did not process' : 'restart processed'} the genesis block:\n${node.log().slice(-2000)}`,
      );
    if (node.height !== 0)
      throw new Error(`${network}: the node answered height ${node.height}, not the genesis height 0`);
  } finally {
    await node.stop();
  }
  const baseline = await baselineStart(network);
  return {
    seconds: node.secondsToFirstAnswer,
    baseline: baseline.seconds,
    cpu: node.cpuSecondsToFirstAnswer,
    baselineCpu: baseline.cpu,
  };
};

/**
 * Seconds from `kestrel start -n <network>` (a process of its own, fresh data path, -c overlay that
 * opens HTTP on a free 127.0.0.1 port and allows system_*) to its first system_getNodeInfo answer,
 * for the first start (the genesis block processed and committed) and a restart on the same data
 * path (the committed chain reloaded), each round followed by the baseline process; the median
 * round counts. Ratio: baseline seconds / Kestrel's seconds.
 */
export const startTimeBench = async () => {
  const results: (ComparisonResult & {
    kestrelSeconds: number;
    baselineSeconds: number;
    kestrelCpuSeconds: number | undefined;
    baselineCpuSeconds: number | undefined;
    rounds: Start[];
  })[] = [];
  for (const network of NETWORKS) {
    const firsts: Start[] = [];
    const restarts: Start[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dataPath = freshDataPath();
      try {
        firsts.push(await measureStart(network, dataPath, true));
        restarts.push(await measureStart(network, dataPath, false));
      } finally {
        removeDataPath(dataPath);
      }
    }
    for (const [kind, rounds] of [
      ['first start (genesis block processed and committed)', firsts],
      ['restart (committed chain reloaded)', restarts],
    ] as const) {
      const median = medianBy(rounds, (r) => r.seconds);
      const goal =
        network === 'mainnet' && rounds === firsts
          ? {
              goal: Number((median.baseline / MAINNET_FIRST_START_GOAL_S).toFixed(3)),
              meetsGoal: median.seconds < MAINNET_FIRST_START_GOAL_S,
            }
          : {};
      results.push({
        name: `kestrel start -n ${network}, ${kind}: seconds to the first system_getNodeInfo answer`,
        baseline: 'node -e: process start, read the preset config, listen, answer (node:http)',
        // "ops/s" are starts per second here
        oursOpsPerSec: Number((1 / median.seconds).toFixed(3)),
        baselineOpsPerSec: Number((1 / median.baseline).toFixed(3)),
        ratio: Number((median.baseline / median.seconds).toFixed(3)),
        ...goal,
        kestrelSeconds: Number(median.seconds.toFixed(3)),
        baselineSeconds: Number(median.baseline.toFixed(3)),
        kestrelCpuSeconds: median.cpu,
        baselineCpuSeconds: median.baselineCpu,
        rounds: rounds.map((r) => ({
          seconds: Number(r.seconds.toFixed(3)),
          baseline: Number(r.baseline.toFixed(3)),
          cpu: r.cpu,
          baselineCpu: r.baselineCpu,
        })),
      });
    }
  }
  printAndSave('start_time', results, { rounds: ROUNDS, loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))) });
  console.log(
    results
      .map(
        (r) =>
          `${r.name}: ${r.kestrelSeconds} s (rounds ${r.rounds.map((x) => x.seconds).join(', ')}; CPU ${r.kestrelCpuSeconds} s), baseline ${r.baselineSeconds} s (CPU ${r.baselineCpuSeconds} s)`,
      )
      .join('\n'),
  );
  return results;
};

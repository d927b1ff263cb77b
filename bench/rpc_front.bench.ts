import { addressFromPublicKey, addressToKlayr32 } from '../src/lib/crypto/address.js';
import { devValidators } from '../test/helpers/devnet.js';
import type { ComparisonResult } from './harness.js';
import { medianBy, printAndSave } from './harness.js';
import { cpuSecondsOf, freshDataPath, removeDataPath, startNodeProcess } from './node_process.js';
import type { Load } from './rpc_load.js';
import { freePort, load, onCPU } from './rpc_load.js';

const SECONDS = Number(process.env.KESTREL_BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.KESTREL_BENCH_ROUNDS ?? 2);

const address = addressToKlayr32(addressFromPublicKey(Buffer.from(devValidators()[0]?.publicKey ?? '', 'hex')));
/** One method the front thread answers itself, one it hands to the main thread. */
const METHODS = {
  token_getBalance: { address, tokenID: '0400000000000000' },
  system_getNodeInfo: {},
} as const;

interface Measured extends Load {
  /** CPU of the node's process (all threads) per answered request, µs. */
  cpuMicros: number;
}

/** A devnet node (kestrel start, pinned to CPU 0) with the front thread on or off, each method loaded over HTTP in turn. */
const measureNode = async (thread: boolean): Promise<Record<string, Measured>> => {
  const previous = process.env.KESTREL_RPC_THREAD;
  process.env.KESTREL_RPC_THREAD = thread ? 'on' : 'off';
  const dataPath = freshDataPath();
  const port = await freePort();
  try {
    const node = await startNodeProcess({
      network: 'devnet',
      dataPath,
      port,
      allowedMethods: ['*'],
      wrap: (command, args) => onCPU(0, command, args),
    });
    try {
      const out: Record<string, Measured> = {};
      for (const [method, params] of Object.entries(METHODS)) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
        const before = cpuSecondsOf(node.child.pid);
        const measured = await load('http', port, body, SECONDS);
        const after = cpuSecondsOf(node.child.pid);
        const cpu = before === undefined || after === undefined ? Number.NaN : after - before;
        out[method] = { ...measured, cpuMicros: (cpu / measured.requests) * 1e6 };
      }
      return out;
    } finally {
      await node.stop();
    }
  } finally {
    removeDataPath(dataPath);
    if (previous === undefined) delete process.env.KESTREL_RPC_THREAD;
    else process.env.KESTREL_RPC_THREAD = previous;
  }
};

const median = (values: number[]): number => medianBy(values, (v) => v);

/**
 * `npm run bench -- rpc-front`: what serving HTTP from the RPC front thread costs an idle node. A devnet node started
 * as an operator starts it, pinned to one CPU (its main thread and its front thread share it), the C loader on the
 * other; token_getBalance (answered in the front thread) and system_getNodeInfo (handed to the main thread) loaded
 * in turn, with the thread and without it (KESTREL_RPC_THREAD=off), alternating, `KESTREL_BENCH_ROUNDS` rounds each
 * (default 2); each figure is the median of its rounds. The ratio is with / without: requests per second, and CPU per request
 * (without / with). What the thread is for, the p99 while a sync runs, is measured by `npm run bench -- sync`.
 */
export const rpcFrontBench = async (): Promise<ComparisonResult[]> => {
  const rounds: { on: Record<string, Measured>; off: Record<string, Measured> }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const off = await measureNode(false);
    const on = await measureNode(true);
    rounds.push({ on, off });
    for (const method of Object.keys(METHODS))
      console.log(
        `round ${round + 1} ${method}: thread ${Math.round(on[method]?.rps ?? 0)} req/s (p99 ${on[method]?.p99} ms, ${on[method]?.cpuMicros.toFixed(1)} µs CPU), main thread ${Math.round(off[method]?.rps ?? 0)} req/s (p99 ${off[method]?.p99} ms, ${off[method]?.cpuMicros.toFixed(1)} µs CPU)`,
      );
  }
  const results: ComparisonResult[] = Object.keys(METHODS).flatMap((method) => {
    const where = method === 'token_getBalance' ? 'answered in the front thread' : 'handed to the main thread';
    const on = median(rounds.map((r) => r.on[method]?.rps ?? 0));
    const off = median(rounds.map((r) => r.off[method]?.rps ?? 0));
    const cpuOn = median(rounds.map((r) => r.on[method]?.cpuMicros ?? Number.NaN));
    const cpuOff = median(rounds.map((r) => r.off[method]?.cpuMicros ?? Number.NaN));
    return [
      {
        name: `${method} over HTTP, idle node on one CPU, ${where}: req/s`,
        baseline: 'same node with HTTP served on its main thread (KESTREL_RPC_THREAD=off)',
        oursOpsPerSec: on,
        baselineOpsPerSec: off,
        ratio: Number((on / off).toFixed(2)),
      },
      {
        name: `${method}, ${where}: requests per CPU second of the node's process (all threads)`,
        baseline: 'same, HTTP on the main thread',
        oursOpsPerSec: Math.round(1e6 / cpuOn),
        baselineOpsPerSec: Math.round(1e6 / cpuOff),
        ratio: Number((cpuOff / cpuOn).toFixed(2)),
      },
    ];
  });
  printAndSave('rpc_front', results, { rounds });
  return results;
};

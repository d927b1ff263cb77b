import type { ChildProcess } from 'node:child_process';
import { devValidators } from '../test/helpers/devnet.js';
import type { ComparisonResult } from './harness.js';
import { medianBy, printAndSave } from './harness.js';
import { callRPC, cpuSecondsOf, freshDataPath, removeDataPath, startNodeProcess } from './node_process.js';
import type { Load } from './rpc_load.js';
import {
  CONNECTIONS,
  canPin,
  freePort,
  LOADER,
  load,
  native,
  onCPU,
  printsListening,
  rpcServerScript,
  spawnServer,
} from './rpc_load.js';
import type { BalanceAccount } from './rpc_server_kinds.js';

const SECONDS = Number(process.env.KESTREL_BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.KESTREL_BENCH_ROUNDS ?? 5);
const GOAL = 3;
const KLY = '0400000000000000';

/** A load with the CPU the server's process spent on it (µs per answered request). */
const withCPU = async (pid: number | undefined, run: () => Promise<Load>): Promise<Load & { cpuMicros?: number }> => {
  const before = cpuSecondsOf(pid);
  const out = await run();
  const after = cpuSecondsOf(pid);
  return before === undefined || after === undefined
    ? out
    : { ...out, cpuMicros: Number((((after - before) * 1e6) / out.requests).toFixed(1)) };
};

type Measured = ComparisonResult & {
  measurement: string;
  oursP50: number;
  oursP99: number;
  baselineP50: number;
  baselineP99: number;
};

const row = (measurement: string, ours: Load, base: Load, ratio: number): Measured => ({
  name: `HTTP token_getBalance, ${CONNECTIONS} connections, a running devnet node (kestrel start) (${measurement})`,
  measurement,
  baseline: "klayr-framework RPC server with klayr-framework's TokenEndpoint.getBalance over an in-memory store",
  oursOpsPerSec: Math.round(ours.rps),
  baselineOpsPerSec: Math.round(base.rps),
  ratio: Number(ratio.toFixed(2)),
  ...(native !== undefined ? { goal: GOAL, meetsGoal: ratio >= GOAL } : {}),
  oursP50: ours.p50,
  oursP99: ours.p99,
  baselineP50: base.p50,
  baselineP99: base.p99,
});

/**
 * token_getBalance over HTTP: a devnet node started as an operator starts it (`kestrel start`, its
 * own process on CPU 0, block generation on, the account read from its LMDB state) against
 * klayr-framework's engine RPC server answering with klayr-framework's TokenEndpoint from an
 * in-memory store holding the same account (its own process on CPU 0). Both answers are checked
 * equal first. Each loaded alone in alternating order, then both at once (sharing CPU 0, so
 * whatever the host does at that moment hits both); the median round's ratio counts.
 */
export const rpcBalanceBench = async () => {
  const dataPath = freshDataPath();
  const children: ChildProcess[] = [];
  let stopNode: (() => Promise<void>) | undefined;
  const stopAll = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stopAll);
  try {
    const kestrelPort = await freePort();
    const node = await startNodeProcess({
      network: 'devnet',
      dataPath,
      port: kestrelPort,
      allowedMethods: ['system', 'token'],
      wrap: (command, args) => onCPU(0, command, args),
    });
    children.push(node.child);
    stopNode = node.stop;
    const [validator] = devValidators();
    if (validator === undefined) throw new Error('the devnet has no validators');
    const { address } = validator;
    const params = { address, tokenID: KLY };
    const answer = (await callRPC(kestrelPort, 'token_getBalance', params)) as Omit<
      BalanceAccount,
      'address' | 'tokenID'
    >;
    const account: BalanceAccount = { ...params, ...answer };
    const klayrPort = await freePort();
    children.push(
      await spawnServer(
        'klayr-token',
        [rpcServerScript, 'klayr-token', String(klayrPort), JSON.stringify(account)],
        printsListening,
      ),
    );
    const theirs = await callRPC(klayrPort, 'token_getBalance', params);
    if (JSON.stringify(theirs) !== JSON.stringify(answer))
      throw new Error(`the answers differ: Kestrel ${JSON.stringify(answer)}, Klayr ${JSON.stringify(theirs)}`);

    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'token_getBalance', params });
    const klayrChild = children[children.length - 1];
    const kestrel = () => withCPU(node.child.pid, () => load('http', kestrelPort, body, SECONDS));
    const klayr = () => withCPU(klayrChild?.pid, () => load('http', klayrPort, body, SECONDS));
    // V8 optimizes both servers' handlers in the first seconds
    await kestrel();
    await klayr();
    type Round = [Load & { cpuMicros?: number }, Load & { cpuMicros?: number }];
    const alone: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        const ours = await kestrel();
        alone.push([ours, await klayr()]);
      } else {
        const base = await klayr();
        alone.push([await kestrel(), base]);
      }
    }
    const together: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) together.push(await Promise.all([kestrel(), klayr()]));
    const results = (
      [
        ['alone', alone],
        ['side by side', together],
      ] as const
    ).map(([measurement, rounds]) => {
      const [ours, base] = medianBy(rounds, ([o, b]) => o.rps / b.rps);
      return {
        ...row(measurement, ours, base, ours.rps / base.rps),
        roundRatios: rounds.map(([o, b]) => Number((o.rps / b.rps).toFixed(2))),
        // CPU per answered request, Klayr's over Kestrel's: what each answer costs its server, whatever the loaders got of CPU 1
        cpuMicrosPerRequest: rounds.map(([o, b]) => [o.cpuMicros, b.cpuMicros]),
        cpuRatios: rounds.map(([o, b]) =>
          o.cpuMicros === undefined || b.cpuMicros === undefined
            ? undefined
            : Number((b.cpuMicros / o.cpuMicros).toFixed(2)),
        ),
      };
    });
    printAndSave('rpc_balance', results, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      loader: LOADER,
      pinning: canPin ? 'servers on CPU 0, loaders on CPU 1' : 'none',
      account,
    });
    console.log(
      results
        .map(
          (r) =>
            `${r.measurement}: rounds ${r.roundRatios.join(', ')} (CPU per request, Klayr / Kestrel: ${r.cpuRatios.join(', ')}); p50/p99 ms Kestrel ${r.oursP50.toFixed(2)}/${r.oursP99.toFixed(2)}, Klayr ${r.baselineP50.toFixed(2)}/${r.baselineP99.toFixed(2)}`,
        )
        .join('\n'),
    );
    return results;
  } finally {
    await stopNode?.();
    stopAll();
    process.off('exit', stopAll);
    removeDataPath(dataPath);
  }
};

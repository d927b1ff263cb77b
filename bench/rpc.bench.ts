import type { ChildProcess } from 'node:child_process';
import { required } from '../src/lib/required.js';
import type { ComparisonResult } from './harness.js';
import { medianBy, printAndSave } from './harness.js';
import type { Load, Protocol } from './rpc_load.js';
import {
  CONNECTIONS,
  canPin,
  freePort,
  LOADER,
  load as loadBody,
  native,
  printsListening,
  rpcServerScript,
  spawnServer,
} from './rpc_load.js';
import type { ServerKind } from './rpc_server_kinds.js';
import { SERVER_KINDS } from './rpc_server_kinds.js';

const SECONDS = Number(process.env.KESTREL_BENCH_SECONDS ?? 3);
/** Rounds per protocol and comparison; the median round counts. */
const ROUNDS = Number(process.env.KESTREL_BENCH_ROUNDS ?? 5);
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'fee_getMinFeePerByte', params: {} });

const VARIANTS: readonly { kind: 'kestrel' | 'kestrel-per-call'; name: string }[] = [
  { kind: 'kestrel', name: "the node's endpoint (declared constant: answer serialized once)" },
  { kind: 'kestrel-per-call', name: 'same handler run and serialized on every request' },
];

const BASELINES: readonly { kind: 'klayr' | 'bare' | 'fixed'; name: string; goal?: number; sideBySide: boolean }[] = [
  { kind: 'klayr', name: 'klayr-framework RPC server', goal: 3, sideBySide: true },
  {
    kind: 'bare',
    name: 'bare uWebSockets.js JSON-RPC handler (reads, parses, answers with the id)',
    goal: 0.8,
    sideBySide: true,
  },
  { kind: 'fixed', name: 'bare uWebSockets.js fixed response (body unread, id ignored)', sideBySide: false },
];

const load = (protocol: Protocol, port: number): Promise<Load> => loadBody(protocol, port, BODY, SECONDS);

/** Each server in a process of its own: the OS shares a core fairly between processes, not between servers on one event loop. */
const startServer = async (kind: ServerKind): Promise<{ port: number; child: ChildProcess }> => {
  const port = await freePort();
  const child = await spawnServer(kind, [rpcServerScript, kind, String(port)], printsListening);
  return { port, child };
};

const medianLoad = (loads: Load[]): Load => medianBy(loads, (l) => l.rps);

type Row = ComparisonResult & {
  measurement: string;
  oursP50: number;
  oursP99: number;
  baselineP50: number;
  baselineP99: number;
};

const row = (
  name: string,
  measurement: string,
  baseline: (typeof BASELINES)[number],
  ours: Load,
  base: Load,
  ratio: number,
): Row => ({
  name,
  measurement,
  baseline: baseline.name,
  oursOpsPerSec: Math.round(ours.rps),
  baselineOpsPerSec: Math.round(base.rps),
  ratio: Number(ratio.toFixed(2)),
  ...(baseline.goal !== undefined && native !== undefined
    ? { goal: baseline.goal, meetsGoal: ratio >= baseline.goal }
    : {}),
  oursP50: ours.p50,
  oursP99: ours.p99,
  baselineP50: base.p50,
  baselineP99: base.p99,
});

/**
 * Kestrel's server (with request metrics, as the node runs it; the node's constant endpoint and the
 * same handler run per request), klayr-framework's own RPC server and two bare uWebSockets.js servers
 * answer the same trivial endpoint; a closed-loop loader keeps 32 connections busy for a fixed time.
 * Two measurements per protocol, each with its goal verdicts:
 * - alone: each server loaded by itself, in rotated order over the rounds; req/s and latency as a user sees them;
 * - side by side: a Kestrel server and one baseline loaded at the same moment, sharing one core: whatever
 *   the machine does at that moment (other tenants, frequency) hits both alike, so the ratio of the
 *   same round holds where sequential runs drift ±20% on a shared VM.
 */
export const rpcBench = async () => {
  const servers = new Map<ServerKind, { port: number; child: ChildProcess }>();
  const stopServers = () => {
    for (const { child } of servers.values()) child.kill('SIGTERM');
  };
  // the servers run in sessions of their own: a Ctrl-C at the terminal never reaches them
  const interrupted = () => {
    stopServers();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('exit', stopServers);
  try {
    for (const kind of SERVER_KINDS) servers.set(kind, await startServer(kind));
    const port = (kind: ServerKind) => required(servers.get(kind), `The ${kind} server`).port;
    const results: Row[] = [];
    for (const protocol of ['http', 'ws'] as const) {
      // the first seconds of a server run while V8 still optimizes its handlers
      for (const kind of servers.keys()) await load(protocol, port(kind));

      const kinds = [...servers.keys()];
      const alone = new Map<ServerKind, Load[]>(kinds.map((k) => [k, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < kinds.length; i++) {
          const kind = kinds[(round + i) % kinds.length];
          required(alone.get(kind), `The ${kind} loads`).push(await load(protocol, port(kind)));
        }
      }

      for (const variant of VARIANTS) {
        const name = `${protocol.toUpperCase()} fee_getMinFeePerByte, ${CONNECTIONS} connections, ${variant.name}`;
        const ours = medianLoad(required(alone.get(variant.kind), `The ${variant.kind} loads`));
        for (const baseline of BASELINES) {
          const theirs = medianLoad(required(alone.get(baseline.kind), `The ${baseline.kind} loads`));
          results.push(row(name, 'alone', baseline, ours, theirs, ours.rps / theirs.rps));
        }
        for (const baseline of BASELINES.filter((b) => b.sideBySide)) {
          const rounds: [Load, Load][] = [];
          for (let round = 0; round < ROUNDS; round++)
            rounds.push(await Promise.all([load(protocol, port(variant.kind)), load(protocol, port(baseline.kind))]));
          const [oursMiddle, theirsMiddle] = medianBy(rounds, ([o, b]) => o.rps / b.rps);
          results.push(
            row(
              name,
              'side by side',
              baseline,
              medianLoad(rounds.map(([o]) => o)),
              medianLoad(rounds.map(([, b]) => b)),
              oursMiddle.rps / theirsMiddle.rps,
            ),
          );
        }
      }
    }
    printAndSave(
      'rpc',
      results.map((r) => ({ ...r, name: `${r.name} (${r.measurement})` })),
      {
        connections: CONNECTIONS,
        seconds: SECONDS,
        rounds: ROUNDS,
        loader: LOADER,
        pinning: canPin ? 'servers on CPU 0, loaders on CPU 1' : 'none',
      },
    );
    console.log(
      `loader: ${LOADER}; ${canPin ? 'servers pinned to CPU 0, loaders to CPU 1' : 'no CPU pinning'}; side-by-side latencies include the other server's turns on the shared core`,
    );
    console.table(
      results.map((r) => ({
        benchmark: r.name,
        measurement: r.measurement,
        baseline: r.baseline,
        'kestrel p50/p99 ms': `${r.oursP50.toFixed(2)}/${r.oursP99.toFixed(2)}`,
        'baseline p50/p99 ms': `${r.baselineP50.toFixed(2)}/${r.baselineP99.toFixed(2)}`,
      })),
    );
  } finally {
    stopServers();
    process.off('SIGINT', interrupted);
    process.off('exit', stopServers);
  }
};

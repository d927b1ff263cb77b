// The nodes of the sync bench: the serving Kestrel node (a child process), a Kestrel follower (in this process)
// and a Klayr Core follower (../shared/tools/klayr-node, a child process), each timed block by block.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { KestrelNode } from '../src/main/node.js';
import { cliPath } from '../test/helpers/cli.js';
import { FAST_POS_WINDOWS } from '../test/helpers/node_process.js';
import { freePort } from '../test/helpers/ports.js';
import { tempDataPath } from '../test/helpers/state.js';
import { stopChild } from '../test/helpers/stop_child.js';
import { BLOCK_TIME, klayrSyncConfigFile, MAX_TRANSACTIONS_SIZE, syncConfig } from './sync_chain.js';

/** When a follower committed each height (ms since the epoch), as far as it got. */
export class HeightClock {
  readonly at = new Map<number, number>();
  #height = 0;

  reached(height: number, atMs: number): void {
    for (let h = this.#height + 1; h <= height; h++) this.at.set(h, atMs);
    if (height > this.#height) this.#height = height;
  }

  get height(): number {
    return this.#height;
  }

  async waitFor(height: number, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#height < height) {
      if (Date.now() > deadline)
        throw new Error(`${what}: at height ${this.#height} after ${timeoutMs} ms, not ${height}`);
      await sleep(20);
    }
  }
}

export interface ServingNode {
  /** The node's log file (its stderr). */
  log: string;
  host: string;
  p2pPort: number;
  rpcPort: number;
  stop(): Promise<void>;
}

/**
 * `kestrel start` on a copy of the chain, P2P on 127.0.0.1, with the devnet's dev-validator keys: it
 * generates on top of the chain at real 3-second slots. A follower starts synchronizing when a peer
 * posts it a block of a better chain (Klayr's rule, which Kestrel follows: nothing else starts it),
 * so the serving node's next block is what starts each follower.
 */
export const startServingNode = async (dataPath: string): Promise<ServingNode> => {
  const [p2pPort, rpcPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'kestrel-sync-serve-'));
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      genesis: { blockTime: BLOCK_TIME, maxTransactionsSize: MAX_TRANSACTIONS_SIZE },
      modules: { pos: FAST_POS_WINDOWS },
      network: { host: '127.0.0.1', port: p2pPort, seedPeers: [] },
    }),
  );
  const log = join(dir, 'serving.log');
  const logFd = openSync(log, 'w');
  const child = spawn(
    process.execPath,
    [cliPath, 'start', '-d', dataPath, '--api-port', String(rpcPort), '-c', config],
    {
      stdio: ['ignore', 'ignore', logFd],
    },
  );
  closeSync(logFd);
  const stderr = `(log: ${log})`;
  const exited = once(child, 'exit');
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the serving node exited:\n${stderr}`);
    const height = await rpcHeight(rpcPort);
    if (height !== undefined) break;
    if (Date.now() > deadline) throw new Error(`the serving node did not answer within 120 s:\n${stderr}`);
    await sleep(300);
  }
  return {
    log,
    host: '127.0.0.1',
    p2pPort,
    rpcPort,
    stop: async () => stopChild(child, exited),
  };
};

export const rpcHeight = async (port: number): Promise<number | undefined> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_getNodeInfo' }),
    });
    return ((await res.json()) as { result?: { height?: number } }).result?.height;
  } catch {
    return undefined;
  }
};

export interface Follower {
  /** Where its log is, for a failure's message. */
  log: string;
  /** CPU seconds (all threads) of the follower's process so far: this process for Kestrel, the child for Klayr Core. */
  cpuSeconds(): number;
  clock: HeightClock;
  rpcPort: number;
  syncing(): boolean;
  stop(): Promise<void>;
}

/** KESTREL_SYNC_RPC_NICE=-15: the follower's HTTP thread at that nice value (rpc.threadNice), a diagnostic. */
const RPC_THREAD_NICE = process.env.KESTREL_SYNC_RPC_NICE;

/** A fresh Kestrel node without generator keys in this process (its RPC over HTTP), following `serving`. */
export const startKestrelFollower = async (serving: ServingNode, host: string): Promise<Follower> => {
  const dataPath = tempDataPath();
  const rpcPort = await freePort();
  const config = syncConfig(dataPath, rpcPort);
  config.rpc.modes = ['http'];
  if (RPC_THREAD_NICE !== undefined) config.rpc.threadNice = Number(RPC_THREAD_NICE);
  const keys = join(mkdtempSync(join(tmpdir(), 'kestrel-sync-keys-')), 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [] }));
  config.generator = { keys: { fromFile: keys } };
  config.network = {
    ...config.network,
    host,
    port: await freePort(),
    seedPeers: [{ ip: serving.host, port: serving.p2pPort }],
    // as the Klayr Core follower: never dropped as a seed, evicted or banned (see startKlayrFollower)
    fixedPeers: [{ ip: serving.host, port: serving.p2pPort }],
    whitelistedPeers: [{ ip: serving.host, port: serving.p2pPort }],
  };
  const node = new KestrelNode(config, pino({ level: process.env.KESTREL_BENCH_LOG ?? 'warn' }));
  const clock = new HeightClock();
  // sampled every 2 ms on this thread (Klayr's follower logs each block; reading a number here costs less)
  const timer = setInterval(() => {
    const height = node.chain?.lastBlock().header.height;
    if (height !== undefined) clock.reached(height, Date.now());
  }, 2);
  await node.start();
  return {
    log: 'this process (KESTREL_BENCH_LOG=info to see it)',
    cpuSeconds: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    },
    clock,
    rpcPort,
    syncing: () => node.syncing(),
    stop: async () => {
      clearInterval(timer);
      await node.stop();
      rmSync(dataPath, { recursive: true, force: true });
      rmSync(dirname(keys), { recursive: true, force: true });
    },
  };
};

/** Linux's clock ticks per second for /proc (USER_HZ, 100 on every common kernel). */
const USER_HZ = 100;

/** utime + stime of a process from /proc/<pid>/stat (fields 14 and 15, after the command's closing parenthesis). */
const childCpuSeconds = (pid: number | undefined): number => {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
};

const KLAYR_NODE_SCRIPT = resolve('../shared/tools/klayr-node/run-node.cjs');
const BLOCK_ADDED = /^(\S+) \[klayr-node [^\]]+\] block added height=(\d+)/;

/**
 * A fresh Klayr Core node (klayr-framework 0.12.3 on the tool's pure-JS lisk-db shim) following `serving`;
 * each block's time is the one its own log line carries (taken in that process when the block was added).
 */
export const startKlayrFollower = async (serving: ServingNode, host: string): Promise<Follower> => {
  const rpcPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'klayr-sync-'));
  const child = spawn(
    process.execPath,
    [
      KLAYR_NODE_SCRIPT,
      '--config',
      klayrSyncConfigFile(dir),
      '--host',
      host,
      '--port',
      String(await freePort()),
      '--rpc-port',
      String(rpcPort),
      '--rpc-modes',
      'http',
      '--block-time',
      String(BLOCK_TIME),
      '--log-level',
      process.env.KESTREL_BENCH_LOG ?? 'warn',
      // seed, fixed and whitelisted: a busy Klayr follower penalises the serving node's once-a-block postNodeInfo
      // (its 10-s window timer runs late, a window holds 5) and bans it at the tenth, which fails the
      // getBlocksFromId in flight; as a plain seed it was never dialled again (stopped at heights 636 and 1,113)
      '--seed',
      `${serving.host}:${serving.p2pPort}`,
      '--fixed',
      `${serving.host}:${serving.p2pPort}`,
      '--whitelist',
      `${serving.host}:${serving.p2pPort}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const clock = new HeightClock();
  const lines: string[] = [];
  let started = false;
  const log = createWriteStream(join(dir, 'klayr-node.log'));
  const keep = (line: string): void => {
    lines.push(line);
    if (lines.length > 200) lines.shift();
  };
  if (child.stdout === null || child.stderr === null) throw new Error('klayr-node has no output pipes');
  createInterface({ input: child.stdout }).on('line', (line) => {
    log.write(`${line}\n`);
    const added = BLOCK_ADDED.exec(line);
    if (added !== null) clock.reached(Number(added[2]), Date.parse(added[1] ?? ''));
    else keep(line);
    if (/\] started in \d+ms/.test(line)) started = true;
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    log.write(`stderr: ${line}\n`);
    keep(`stderr: ${line}`);
  });
  const exited = once(child, 'exit');
  const deadline = Date.now() + 120_000;
  while (!started) {
    if (child.exitCode !== null) throw new Error(`klayr-node exited:\n${lines.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`klayr-node did not start within 120 s:\n${lines.join('\n')}`);
    await sleep(100);
  }
  return {
    log: join(dir, 'klayr-node.log'),
    cpuSeconds: () => childCpuSeconds(child.pid),
    clock,
    rpcPort,
    syncing: () => false,
    stop: async () => {
      await stopChild(child, exited);
      log.end();
    },
  };
};

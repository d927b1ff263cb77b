// What the RPC suites share: the closed-loop loader (bench/load.c, or the Node.js fallback), CPU
// pinning (servers on CPU 0, loaders on CPU 1) and servers started in processes of their own.

import type { ChildProcess } from 'node:child_process';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nativeLoader } from './native_load.js';

const run = promisify(execFile);
const nodeLoaderScript = fileURLToPath(new URL('./load.js', import.meta.url));
/** bench/rpc_server.ts, which starts one server of the RPC benches (argv: kind, port, kind's argument). */
export const rpcServerScript = fileURLToPath(new URL('./rpc_server.js', import.meta.url));
export const CONNECTIONS = 32;

export type Protocol = 'http' | 'ws';

export interface Load {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
}

/**
 * Servers share CPU 0 and loaders run on CPU 1 (where taskset exists and there are two CPUs):
 * a server then never waits behind its own load generator for a core.
 */
export const canPin = availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
export const onCPU = (cpu: number, command: string, args: string[]): [string, string[]] =>
  canPin ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];

export const native = nativeLoader();
/** The Node.js loaders saturate their core before uWS servers do: their ratios measure the loader, so they get no goal verdict. */
export const LOADER =
  native !== undefined
    ? 'C epoll loader (bench/load.c)'
    : 'Node.js loader (autocannon, raw WebSocket client): loader-bound, no goal verdicts';

/** `CONNECTIONS` keep-alive connections with one request (`body`) in flight each for `seconds`; every answer must be a result. */
export const load = async (protocol: Protocol, port: number, body: string, seconds: number): Promise<Load> => {
  const path = protocol === 'ws' ? '/rpc-ws' : '/rpc';
  const [command, args] =
    native !== undefined
      ? onCPU(1, native, [protocol, '127.0.0.1', String(port), path, String(CONNECTIONS), String(seconds), body])
      : onCPU(1, process.execPath, [
          nodeLoaderScript,
          protocol,
          `${protocol}://127.0.0.1:${port}${path}`,
          String(CONNECTIONS),
          String(seconds),
          body,
        ]);
  const { stdout } = await run(command, args, { maxBuffer: 1 << 20 });
  const out = JSON.parse(stdout) as Load & { errors: number; error?: string };
  if (out.errors > 0)
    throw new Error(`${protocol} load on port ${port}: ${out.errors} failed answers, the first: ${out.error}`);
  return out;
};

export const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  return port;
};

/**
 * Runs a server process on CPU 0 in a session of its own: with the kernel's autogroups, CPU 0 is
 * then shared fairly between server processes, not between their threads (a server whose GC runs
 * on helper threads would get more). `ready` tells when it serves.
 */
export const spawnServer = async (
  name: string,
  args: string[],
  ready: (child: ChildProcess) => Promise<void>,
): Promise<ChildProcess> => {
  const [command, argv] = onCPU(0, process.execPath, args);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the ${name} server exited with ${code}`))),
  );
  // an exit after the server is ready (it is stopped at the end) is no failure
  exited.catch(() => undefined);
  await Promise.race([ready(child), exited]);
  return child;
};

/** Resolves when the process prints `listening` on stdout. */
export const printsListening = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) =>
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve()),
  );

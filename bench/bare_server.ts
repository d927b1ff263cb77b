import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { stopChild } from '../test/helpers/stop_child.js';
import { freePort, printsListening, rpcServerScript } from './rpc_load.js';

/**
 * bench/rpc_server.ts's `bare` server (uWebSockets.js answering every POST with a fixed JSON-RPC result, no
 * work) in a process of its own, not pinned: under a load on the same machine, its latency is what any
 * server there gets from the CPU, whatever its design.
 */
export const startBareServer = async (): Promise<{ port: number; stop: () => Promise<void> }> => {
  const port = await freePort();
  const child = spawn(process.execPath, [rpcServerScript, 'bare', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  await printsListening(child);
  return { port, stop: () => stopChild(child, exited) };
};

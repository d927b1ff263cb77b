import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { required } from '../../lib/required.js';
import { connectIPC } from '../../rpc/client.js';
import { DataPathInUseError, DataPathLock } from '../lock/data_path_lock.js';
import { NODE_FLAGS } from '../node_flags.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

/** The old node must be stopped before the successor starts (they share the ports): its data path lock must be free. */
export const checkOldNodeStopped = (oldDataPath: string): void => {
  try {
    DataPathLock.acquire(oldDataPath).release();
  } catch (e) {
    if (e instanceof DataPathInUseError)
      throw new Error(
        `The old node still runs (process ${e.holder.pid} holds ${oldDataPath}): stop it before the successor node starts, or leave out --auto-start.`,
      );
    throw e;
  }
};

/** Polls the node over IPC until system_getNodeInfo answers; the node exiting first, or the timeout, is an error. */
const waitUntilAnswering = async (
  child: ChildProcess,
  dataPath: string,
  timeoutMs: number,
): Promise<{ height: number; chainID: string }> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `The successor node exited (code ${String(child.exitCode)}, signal ${String(child.signalCode)}) before it answered RPC.`,
      );
    try {
      const client = await connectIPC(dataPath);
      try {
        return (await client.invoke('system_getNodeInfo')) as { height: number; chainID: string };
      } finally {
        await client.close();
      }
    } catch {
      await sleep(500);
    }
  }
  child.kill('SIGTERM');
  throw new Error(`The successor node did not answer RPC over IPC within ${timeoutMs / 1000} s.`);
};

/**
 * Starts the successor node (`kestrel start -d <dataPath> -c <config> --overwrite-config`) as a
 * child process this one supervises: its output passes through, SIGINT/SIGTERM are forwarded, and
 * this process exits with the node's code once it stops. Resolves when the node answers RPC.
 */
export const startSuccessor = async (
  dataPath: string,
  configFile: string,
  timeoutMs = 120_000,
): Promise<{ pid: number; height: number; chainID: string; exited: Promise<number> }> => {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, CLI, 'start', '-d', dataPath, '-c', configFile, '--overwrite-config'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128))),
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  const info = await waitUntilAnswering(child, dataPath, timeoutMs);
  return { pid: required(child.pid, 'The process ID of the successor node'), ...info, exited };
};

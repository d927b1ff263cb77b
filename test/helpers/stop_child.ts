import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** SIGTERM to a child still running, SIGKILL when it has not exited 20 s later; `exited` is its exit event. */
export const stopChild = async (child: ChildProcess, exited: Promise<unknown>): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)]);
  if (!done) {
    child.kill('SIGKILL');
    await exited;
  }
};

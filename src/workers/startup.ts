import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';

/** How long a close waits for a thread still loading its modules before terminating it anyway. */
export const STARTUP_WAIT_MS = 10_000;

/**
 * Terminates `worker` once `started` settles (its modules loaded, or the thread ended), or STARTUP_WAIT_MS
 * later at the latest. A thread terminated while a native addon registers itself (lmdb's, loaded by the task
 * modules that open the node's environment) ends the whole process with a fatal error (`napi_throw` in
 * `napi_register_module_v1`): threads terminated 0-80 ms into their import of lmdb aborted the process within a few
 * hundred terminations, as test files of CI did twice when a node stopped right after it started its pools.
 */
export const terminateStarted = async (worker: Worker, started: Promise<unknown>): Promise<void> => {
  await Promise.race([started, sleep(STARTUP_WAIT_MS, undefined, { ref: false })]);
  await worker.terminate();
};

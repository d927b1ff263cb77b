import { setTimeout as sleep } from 'node:timers/promises';
import { Piscina } from 'piscina';
import { STARTUP_WAIT_MS } from './startup.js';

/**
 * How long a thread above `minThreads` may sit idle before it exits. Piscina's default (0)
 * ends such a thread as soon as its queue empties, so bursty work like a turn's batches of
 * signature checks started a fresh thread (tens of milliseconds) for almost every burst.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/** A Piscina pool running `task` (a module next to this one, as compiled), 1..threads threads. */
export const workerPool = (
  task: string,
  threads: number,
  options: { minThreads?: number; idleTimeout?: number } = {},
): Piscina =>
  new Piscina({
    filename: new URL(`./${task}`, import.meta.url).href,
    minThreads: Math.min(options.minThreads ?? 1, threads),
    maxThreads: threads,
    idleTimeout: options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS,
  });

/** The named export of a task module that answers once the module has loaded (destroyLoaded). */
export const LOADED_TASK = 'loaded';

/**
 * Destroys `pool` once a thread of it has loaded its task module, or STARTUP_WAIT_MS later at the latest, for
 * task modules that load a native addon (startup.ts: a thread terminated inside the addon's registration aborts
 * the process). A pool with no thread is destroyed at once. Only threads started before the one that answers are
 * covered: the pools that use it start one thread and add more under load.
 */
export const destroyLoaded = async (pool: Piscina): Promise<void> => {
  if (pool.threads.length > 0)
    await Promise.race([
      pool.run(undefined, { name: LOADED_TASK }).catch(() => undefined),
      sleep(STARTUP_WAIT_MS, undefined, { ref: false }),
    ]);
  await pool.destroy();
};

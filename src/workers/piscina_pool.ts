import { Piscina } from 'piscina';

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

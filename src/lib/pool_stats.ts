/** What a worker pool (or its same-thread stand-in) reports to /metrics. */
export interface PoolStats {
  /** Tasks handed to the pool and not yet taken up by a thread. */
  readonly queued: number;
  /** Tasks answered (resolved or failed) since the pool started. */
  readonly completed: number;
  /** Their summed time from hand-off to answer, in seconds. */
  readonly taskSeconds: number;
}

/** Counts a pool's tasks and the time each took from hand-off to answer. */
export class TaskTally {
  #completed = 0;
  #seconds = 0;

  async time<T>(task: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await task();
    } finally {
      this.#done(started);
    }
  }

  timeSync<T>(task: () => T): T {
    const started = performance.now();
    try {
      return task();
    } finally {
      this.#done(started);
    }
  }

  #done(started: number): void {
    this.#completed += 1;
    this.#seconds += (performance.now() - started) / 1000;
  }

  stats(queued = 0): PoolStats {
    return { queued, completed: this.#completed, taskSeconds: this.#seconds };
  }
}

/** Runs `task` after `delayMs`; the returned function cancels it if it has not run yet. */
export interface Scheduler {
  schedule(task: () => void, delayMs: number): () => void;
}

/** setTimeout, unref'd: a pool waiting for its next run does not keep the process alive. */
export const timerScheduler: Scheduler = {
  schedule(task, delayMs) {
    const timer = setTimeout(task, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Klayr's Job: wait `intervalMs`, run, wait again once the run has finished, until stopped.
 * A failing run is reported and the job carries on.
 */
export class PeriodicJob {
  #cancel: (() => void) | undefined;
  #active = false;
  #running = false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly scheduler: Scheduler,
    private readonly onError: (error: unknown) => void,
  ) {}

  get active(): boolean {
    return this.#active;
  }

  start(): void {
    if (this.#active) return;
    this.#active = true;
    if (!this.#running) this.#scheduleNext();
  }

  /** No further run starts; one already running finishes on its own. */
  stop(): void {
    this.#active = false;
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #scheduleNext(): void {
    this.#cancel = this.scheduler.schedule(() => {
      this.#cancel = undefined;
      this.#running = true;
      Promise.resolve()
        .then(() => this.run())
        .catch(this.onError)
        .finally(() => {
          this.#running = false;
          if (this.#active && this.#cancel === undefined) this.#scheduleNext();
        });
    }, this.intervalMs);
  }
}

/** Runs tasks one at a time, in the order they were asked for (Klayr's jobHandlers.Mutex). */
export class Mutex {
  #last: Promise<unknown> = Promise.resolve();
  #waiting = 0;

  /** Tasks started or waiting. */
  get pending(): number {
    return this.#waiting;
  }

  /** `task` once every task asked for before it has settled; its result or its error. */
  runExclusive<T>(task: () => T | Promise<T>): Promise<T> {
    this.#waiting += 1;
    const run = this.#last.then(task).finally(() => {
      this.#waiting -= 1;
    });
    this.#last = run.catch(() => undefined);
    return run;
  }
}

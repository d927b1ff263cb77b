const min = (a: bigint | undefined, b: bigint | undefined): bigint | undefined =>
  a === undefined ? b : b === undefined ? a : a < b ? a : b;

/**
 * The lowest fee priority a full pool compares newcomers with: the minimum of Klayr's
 * `_feePriorityQueue`. That queue gains every added transaction and is rebuilt from the pool's
 * contents only by `remove()`, so a transaction replaced or dropped by its account list keeps
 * counting until the next `remove()`. Reproduced here for parity, without the heap: a cached
 * minimum, recomputed lazily after a rebuild.
 */
export class FeePriorityFloor {
  #lowest: bigint | undefined;
  #stale = false;
  /** Priorities dropped by account lists since the last rebuild, while #stale. */
  #droppedLowest: bigint | undefined;

  constructor(private readonly currentPriorities: () => Iterable<bigint>) {}

  added(priority: bigint): void {
    if (!this.#stale) this.#lowest = min(this.#lowest, priority);
  }

  /** A transaction left the pool without a rebuild (replaced, or its account list was full). */
  droppedWithoutRebuild(priority: bigint): void {
    if (this.#stale) this.#droppedLowest = min(this.#droppedLowest, priority);
  }

  /** Klayr's remove() rebuilt its queue from the transactions now in the pool. */
  rebuilt(): void {
    this.#stale = true;
    this.#lowest = undefined;
    this.#droppedLowest = undefined;
  }

  lowest(): bigint | undefined {
    if (this.#stale) {
      let lowest = this.#droppedLowest;
      for (const priority of this.currentPriorities()) lowest = min(lowest, priority);
      this.#lowest = lowest;
      this.#stale = false;
      this.#droppedLowest = undefined;
    }
    return this.#lowest;
  }
}

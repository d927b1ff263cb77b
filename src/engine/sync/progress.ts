import type { Logger } from 'pino';

/** What a synchronization has done so far, for the log and /metrics. */
export interface SyncProgressSnapshot {
  /** The height of the block the synchronization runs towards (0 when none runs). */
  target: number;
  /** The last height it committed. */
  height: number;
  /** Blocks committed by synchronizations since the node started. */
  blocks: number;
  /** Blocks per second over the current synchronization (0 when none runs). */
  blocksPerSecond: number;
}

/** Klayr logs nothing between the start and the end of a synchronization; Kestrel says where it is this often. */
export const PROGRESS_LOG_INTERVAL_MS = 2000;

/** Counts the blocks a synchronization commits and logs height, target and rate at most every 2 s. */
export class SyncProgress {
  #target = 0;
  #height = 0;
  #blocks = 0;
  #runBlocks = 0;
  #startedAt = 0;
  #loggedAt = 0;

  constructor(
    private readonly logger: Pick<Logger, 'info'>,
    private readonly now: () => number = Date.now,
  ) {}

  begin(target: number, height: number): void {
    this.#target = target;
    this.#height = height;
    this.#runBlocks = 0;
    this.#startedAt = this.now();
    this.#loggedAt = this.#startedAt;
  }

  committed(height: number): void {
    this.#height = height;
    // past the block that started it (its peers' chain went on without it): the target is where it is now
    if (this.#target !== 0 && height > this.#target) this.#target = height;
    this.#blocks += 1;
    this.#runBlocks += 1;
    if (this.#target === 0) return;
    const now = this.now();
    if (now - this.#loggedAt < PROGRESS_LOG_INTERVAL_MS) return;
    this.#loggedAt = now;
    const { target, blocksPerSecond } = this.snapshot();
    this.logger.info(
      { height, target, blocksPerSecond },
      `Synchronizing: height ${height} of ${target} (${blocksPerSecond.toFixed(1)} blocks/s)`,
    );
  }

  end(): void {
    this.#target = 0;
  }

  snapshot(): SyncProgressSnapshot {
    const seconds = (this.now() - this.#startedAt) / 1000;
    return {
      target: this.#target,
      height: this.#height,
      blocks: this.#blocks,
      blocksPerSecond: this.#target === 0 || seconds <= 0 ? 0 : this.#runBlocks / seconds,
    };
  }
}

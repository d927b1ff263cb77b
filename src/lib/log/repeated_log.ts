/** The part of a pino logger this needs. */
export interface LevelLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RepeatedLogOptions {
  level?: 'error' | 'warn';
  /** While the same failure goes on, how often its count is logged. */
  summaryIntervalMs?: number;
  now?: () => number;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Logs a failure that a periodic job may hit on every run once in full (with its stack), then
 * counts: "repeated N times" is logged when a different failure comes, when the job succeeds
 * again (`resolved`), and every `summaryIntervalMs` while it goes on.
 */
export class RepeatedLog {
  readonly #level: 'error' | 'warn';
  readonly #interval: number;
  readonly #now: () => number;
  #current?: { signature: string; msg: string; error: string; since: number };
  #repeats = 0;

  constructor(
    private readonly logger: LevelLogger,
    options: RepeatedLogOptions = {},
  ) {
    this.#level = options.level ?? 'error';
    this.#interval = options.summaryIntervalMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** One occurrence of a failure (`err` and the message identify it). */
  report(err: unknown, msg: string): void {
    const error = messageOf(err);
    const signature = `${msg}\n${error}`;
    const now = this.#now();
    if (this.#current?.signature === signature) {
      this.#repeats++;
      if (now - this.#current.since >= this.#interval) this.#summarize(now);
      return;
    }
    this.#summarize(now);
    this.#current = { signature, msg, error, since: now };
    this.logger[this.#level]({ err }, msg);
  }

  /** The job succeeded: the failure, if any, is over. */
  resolved(): void {
    this.#summarize(this.#now());
    this.#current = undefined;
  }

  /** Logs the count of repeats since the last line about this failure, if any. */
  #summarize(now: number): void {
    const current = this.#current;
    if (current === undefined || this.#repeats === 0) return;
    const seconds = Math.round((now - current.since) / 1000);
    this.logger[this.#level](
      { repeated: this.#repeats, seconds, error: current.error },
      `${current.msg}: repeated ${this.#repeats} times in ${seconds} s`,
    );
    this.#repeats = 0;
    current.since = now;
  }
}

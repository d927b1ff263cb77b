import { PENALTY_RATE_LIMIT } from '../../lib/chain/p2p_penalties.js';

/** Klayr resets the per-procedure call counts every 10 s (BaseNetworkEndpoint's DEFAULT_RATE_RESET_TIME). */
export const RATE_RESET_MS = 10_000;

/**
 * Klayr's per-peer limits on the framework's procedures and events (BaseNetworkEndpoint.addRateLimit):
 * each call over `limit` within the 10-second window costs the peer a penalty of 10.
 */
export class RateLimiter {
  #counts = new Map<string, number>();
  #timer?: NodeJS.Timeout;

  constructor(private readonly penalise: (peerId: string, penalty: number) => void) {}

  start(): void {
    this.#timer ??= setInterval(() => this.#counts.clear(), RATE_RESET_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Counts one call of `procedure` by `peerId`; over `limit`, the peer is penalised. */
  count(procedure: string, peerId: string, limit: number): void {
    const key = `${procedure}\u0000${peerId}`;
    const calls = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, calls);
    if (calls > limit) this.penalise(peerId, PENALTY_RATE_LIMIT);
  }
}

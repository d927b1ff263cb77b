import { setTimeout as sleep } from 'node:timers/promises';

/**
 * At most `limit` requests to one peer in any `windowMs`: a request over it waits until the
 * oldest in the window has left it. Peers limit each procedure per 10-second window and
 * penalise the excess, so a follower faster than that must pace itself.
 */
export class RequestPacer {
  readonly #sent = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when a request to `peerId` may go out, and counts it. */
  async slot(peerId: string): Promise<void> {
    for (;;) {
      const now = this.now();
      const recent = (this.#sent.get(peerId) ?? []).filter((t) => t > now - this.windowMs);
      if (recent.length < this.limit) {
        recent.push(now);
        this.#sent.set(peerId, recent);
        return;
      }
      this.#sent.set(peerId, recent);
      await sleep((recent[0] ?? now) + this.windowMs - now + 1);
    }
  }
}

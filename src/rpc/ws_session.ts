import { invalidRequest, MSG_PARSE_FAILED, success } from './jsonrpc.js';
import type { RequestHandler } from './request_handler.js';

/**
 * One WebSocket connection, independent of the server library: subscribe/unsubscribe
 * change its topics; everything else goes to the dispatcher.
 */
export class WSSession {
  readonly topics = new Set<string>();
  closed = false;

  constructor(
    private readonly dispatcher: RequestHandler,
    private readonly send: (text: string) => void,
  ) {}

  /** Synchronous endpoints are answered before this returns; asynchronous ones when they settle. */
  onMessage(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.#reply(invalidRequest(null, MSG_PARSE_FAILED));
      return;
    }
    const request = parsed as { method?: unknown; id?: unknown; params?: { topics?: unknown } };
    if (
      typeof request === 'object' &&
      request !== null &&
      (request.method === 'subscribe' || request.method === 'unsubscribe')
    ) {
      const topics = request.params?.topics;
      const id = typeof request.id === 'number' || typeof request.id === 'string' ? request.id : null;
      if (
        !Array.isArray(topics) ||
        topics.length === 0 ||
        !topics.every((t) => typeof t === 'string' && t.length > 0)
      ) {
        this.#reply(
          invalidRequest(id, 'Invalid subscription message: params.topics must be a non-empty array of event names.'),
        );
        return;
      }
      for (const t of topics as string[]) {
        if (request.method === 'subscribe') this.topics.add(t);
        else this.topics.delete(t);
      }
      this.#reply(success(id, { topics: [...this.topics] }));
      return;
    }
    const out = this.dispatcher.handleValue(parsed, 'ws', text);
    if (typeof out === 'string') this.#reply(out);
    else void out.then((text) => this.#reply(text));
  }

  #reply(text: string): void {
    if (!this.closed) this.send(text);
  }
}

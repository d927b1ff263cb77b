import type { Dispatcher } from './dispatcher.js';
import type { Transport } from './registry.js';
import type { RequestHandler } from './request_handler.js';

/** Sends a request's text to the dispatcher that answers it (the main thread's), and resolves with its answer. */
export type Forward = (text: string, transport: Transport) => Promise<string>;

/**
 * The RPC front thread's handler: a single request for a method `isLocal` names (those `local` serves) is
 * answered here, by a dispatcher of those methods alone (the same code, so the same answers and errors); anything
 * else (other methods, batches, bodies that do not parse) goes, as its text, to the dispatcher of
 * every method.
 */
export class ForwardingHandler implements RequestHandler {
  constructor(
    private readonly local: Dispatcher,
    private readonly isLocal: (method: string) => boolean,
    private readonly forward: Forward,
  ) {}

  handle(raw: string, transport: Transport): string | Promise<string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return this.forward(raw, transport);
    }
    return this.#servedHere(parsed) ? this.local.handleParsed(parsed, transport) : this.forward(raw, transport);
  }

  /** `raw` is what goes to the main thread: its text as the client sent it (a re-serialized value can differ). */
  handleValue(parsed: unknown, transport: Transport, raw: string): string | Promise<string> {
    return this.#servedHere(parsed) ? this.local.handleParsed(parsed, transport) : this.forward(raw, transport);
  }

  #servedHere(parsed: unknown): boolean {
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
    const { method } = parsed as { method?: unknown };
    return typeof method === 'string' && this.isLocal(method);
  }
}

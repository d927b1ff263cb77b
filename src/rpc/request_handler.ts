import type { Transport } from './registry.js';

/** What the transports hand requests to: the dispatcher, or the RPC front thread's handler (forwarding_handler.ts). */
export interface RequestHandler {
  /** A raw body: one request or a batch. */
  handle(raw: string, transport: Transport): string | Promise<string>;
  /** A body parsed already (a WebSocket message that is no subscription), and its text. */
  handleValue(parsed: unknown, transport: Transport, raw: string): string | Promise<string>;
}

import { notification } from './jsonrpc.js';

/** Where published events go: each transport registers one sink. */
export type EventSink = (name: string, text: string) => void;

/** Framework events (chain_newBlock, txpool_newTransaction, …) published once, delivered by every transport. */
export class EventHub {
  readonly #sinks = new Set<EventSink>();

  addSink(sink: EventSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  publish(name: string, data: unknown): void {
    this.publishText(name, notification(name, data));
  }

  /** An event whose notification text is made already (by the hub of another thread). */
  publishText(name: string, text: string): void {
    for (const sink of this.#sinks) sink(name, text);
  }
}

/** A WebSocket client's topics; like Klayr Core, a topic matches an event it equals or is part of (e.g. "chain"). */
export const topicMatches = (topics: ReadonlySet<string>, name: string): boolean => {
  for (const topic of topics) if (name === topic || name.includes(topic)) return true;
  return false;
};

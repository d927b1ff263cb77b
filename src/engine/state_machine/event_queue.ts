import type { BlockEvent } from '../../lib/chain/events.js';
import { EVENT_MAX_TOPICS_PER_EVENT } from '../../lib/chain/events.js';

export const EVENT_MAX_EVENT_SIZE_BYTES = 10 * 1024;
/** Default topics of the execution stages (Lisk SDK v6 state machine). */
export const EVENT_TOPIC_INIT_GENESIS_STATE = Buffer.from([0]);
export const EVENT_TOPIC_FINALIZE_GENESIS_STATE = Buffer.from([1]);
export const EVENT_TOPIC_BEFORE_TRANSACTIONS = Buffer.from([2]);
export const EVENT_TOPIC_AFTER_TRANSACTIONS = Buffer.from([3]);

interface Queued {
  event: BlockEvent;
  noRevert: boolean;
}

/**
 * The events of one block in emission order; a child queue shares the list and prepends
 * its stage or transaction topic. Restoring a snapshot drops later events except those
 * marked noRevert, which are re-indexed (as Klayr's EventQueue does).
 */
export class EventQueue {
  constructor(
    private readonly height: number,
    private readonly events: Queued[] = [],
    private readonly defaultTopics: readonly Buffer[] = [],
  ) {}

  add(module: string, name: string, data: Buffer, topics: readonly Buffer[] = [], noRevert = false): void {
    const all = [...this.defaultTopics, ...topics];
    if (data.length > EVENT_MAX_EVENT_SIZE_BYTES)
      throw new Error(`Max size of event data is ${EVENT_MAX_EVENT_SIZE_BYTES} but received ${data.length}`);
    if (all.length > EVENT_MAX_TOPICS_PER_EVENT)
      throw new Error(`Max topics per event is ${EVENT_MAX_TOPICS_PER_EVENT} but received ${all.length}`);
    this.events.push({
      event: { module, name, data, topics: all, height: this.height, index: this.events.length },
      noRevert,
    });
  }

  childQueue(topic: Buffer): EventQueue {
    return new EventQueue(this.height, this.events, [topic]);
  }

  snapshot(): number {
    return this.events.length;
  }

  restoreSnapshot(id: number): void {
    const dropped = this.events.splice(id);
    dropped
      .filter((q) => q.noRevert)
      .forEach((q, i) => {
        this.events.push({ event: { ...q.event, index: id + i }, noRevert: false });
      });
  }

  /** Drops every event after the snapshot, noRevert ones included (a transaction left out of a block). */
  truncate(id: number): void {
    this.events.splice(id);
  }

  getEvents(): BlockEvent[] {
    return this.events.map((q) => q.event);
  }
}

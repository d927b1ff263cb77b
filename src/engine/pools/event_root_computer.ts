import type { EventKeySource } from '../../lib/chain/events.js';
import { eventRootOf } from '../../lib/chain/events.js';
import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';

/** Event roots of executed blocks (the `roots` pool in a node). */
export interface EventRootComputer {
  /** The event root of `events`, given their encodings (eventEncodings, which checks the events). */
  root(events: readonly EventKeySource[], encodings: readonly Buffer[]): Promise<Buffer>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** On the calling thread (tests, tools). */
export const createLocalEventRootComputer = (): EventRootComputer => {
  const tally = new TaskTally();
  return {
    root: async (events, encodings) => tally.timeSync(() => eventRootOf(events, encodings)),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};

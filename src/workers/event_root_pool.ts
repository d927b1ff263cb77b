import { packEventRootInput } from '../lib/chain/event_root_input.js';
import type { EventKeySource } from '../lib/chain/events.js';
import { eventRootOf } from '../lib/chain/events.js';
import type { PoolStats } from '../lib/pool_stats.js';
import { TaskTally } from '../lib/pool_stats.js';
import { ThreadPool } from './thread_pool.js';

/**
 * Fewer leaves (event topics) than this and the root is computed on the calling thread: packing, the two
 * messages and waking the thread cost about what hashing a tree of this size does (measured: a block of
 * 100 transfers has about 1,500 leaves and takes 3-4 ms; an empty block's handful, microseconds).
 */
export const POOLED_EVENT_ROOT_MIN_LEAVES = 128;

const leavesOf = (events: readonly EventKeySource[]): number => {
  let leaves = 0;
  for (const event of events) leaves += event.topics.length;
  return leaves;
};

/**
 * The `roots` pool (an EventRootComputer): one thread computing the event roots of large blocks while the main thread computes
 * their state roots. Not niced: a block's commit waits for it.
 */
export const createPooledEventRootComputer = () => {
  const pool = new ThreadPool<Uint8Array, Uint8Array>('event_root_task.js', 1);
  const tally = new TaskTally();
  return {
    root: async (events: readonly EventKeySource[], encodings: readonly Buffer[]): Promise<Buffer> => {
      if (leavesOf(events) < POOLED_EVENT_ROOT_MIN_LEAVES) return eventRootOf(events, encodings);
      const packed = packEventRootInput(events, encodings);
      try {
        const root = await tally.time(() => pool.run(packed, [packed.buffer as ArrayBuffer]));
        return Buffer.from(root.buffer, root.byteOffset, root.byteLength);
      } catch {
        // the thread died with the task, or the pool is closing: the same root, here
        return eventRootOf(events, encodings);
      }
    },
    stats: (): PoolStats => tally.stats(pool.queueSize),
    close: () => pool.close(),
  };
};

import { availableParallelism } from 'node:os';
import type { WeightedAggregateRequest } from '../lib/crypto/bls_key_cache.js';
import type { PopItem, SingleSignatureRequest } from '../lib/crypto/bls_requests.js';
import type { PoolStats } from '../lib/pool_stats.js';
import { TaskTally } from '../lib/pool_stats.js';
import { batching } from './batching.js';
import { workerPool } from './piscina_pool.js';

/** Largest batch of checks gathered from one turn's batchable calls into one task. */
const MAX_BATCH = 32;

/** Options of each call, as the engine's BlsVerifier declares them. */
interface Options {
  batchable?: boolean;
}

/**
 * The `bls` pool (a BlsVerifier): worker threads, each with its own cache of validator sets'
 * parsed keys. A call's list of checks is split over the threads; checks marked batchable wait
 * for the end of the event loop's turn and go with the others of that turn, a batch per task.
 */
export const createPooledBlsVerifier = (threads = Math.max(1, availableParallelism() - 1)) => {
  const pool = workerPool('bls_task.js', threads);
  const tally = new TaskTally();
  const run = <R>(name: string, payload: unknown): Promise<R> =>
    tally.time(() => pool.run(payload, { name }) as Promise<R>);
  /** A list of checks split into about two tasks per thread. */
  const spread = async <T>(name: string, items: readonly T[]): Promise<boolean[]> => {
    if (items.length === 0) return [];
    const size = Math.ceil(items.length / (threads * 2));
    const chunks = Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
      items.slice(i * size, (i + 1) * size),
    );
    return (await Promise.all(chunks.map((chunk) => run<boolean[]>(name, chunk)))).flat();
  };
  const batched = <T>(name: string) =>
    batching((items: readonly T[]) => run<boolean[]>(name, items), MAX_BATCH, threads);
  const aggregates = batched<WeightedAggregateRequest>('verifyWeightedAggregates');
  const singles = batched<SingleSignatureRequest>('verifySingles');
  const pops = batched<PopItem>('verifyPops');
  return {
    verifyAggregate: (request: WeightedAggregateRequest, options: Options = {}): Promise<boolean> =>
      options.batchable === true ? aggregates(request) : run<boolean>('verifyWeightedAggregate', request),
    verifySingles: (requests: readonly SingleSignatureRequest[], options: Options = {}): Promise<boolean[]> =>
      options.batchable === true ? Promise.all(requests.map(singles)) : spread('verifySingles', requests),
    verifyProofsOfPossession: (items: readonly PopItem[], options: Options = {}): Promise<boolean[]> =>
      options.batchable === true ? Promise.all(items.map(pops)) : spread('verifyPops', items),
    stats: (): PoolStats => tally.stats(pool.queueSize),
    close: () => pool.destroy(),
  };
};

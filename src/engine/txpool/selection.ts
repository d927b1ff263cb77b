import type { PooledTransaction } from './types.js';

/**
 * The order a generator tries pooled transactions in (Klayr's high-fee strategy): each sender's
 * processable transactions stay in nonce order, and among the senders' next transactions the
 * highest fee priority goes first.
 */
export function* highFeeFirst(
  processable: ReadonlyMap<string, readonly PooledTransaction[]>,
): Generator<PooledTransaction> {
  const heads = [...processable.values()].filter((list) => list.length > 0).map((list) => ({ list, next: 0 }));
  while (heads.length > 0) {
    let best = 0;
    for (let i = 1; i < heads.length; i++) {
      if (heads[i].list[heads[i].next].feePriority > heads[best].list[heads[best].next].feePriority) best = i;
    }
    const head = heads[best];
    yield head.list[head.next];
    head.next += 1;
    if (head.next === head.list.length) heads.splice(best, 1);
  }
}

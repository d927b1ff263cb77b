import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RPCMetrics } from '../../src/rpc/metrics.js';
import { createPooledStateProver } from '../../src/workers/state_prover.js';

describe('Prometheus metrics', () => {
  it('report worker-pool queue depths when scraped', async () => {
    const metrics = new RPCMetrics();
    const pool = createPooledStateProver(1);
    let backlog = 3;
    metrics.watchPool('busy', () => backlog);
    metrics.watchPool('state', () => pool.queueSize());
    try {
      const first = await metrics.text();
      assert.match(first, /kestrel_pool_queue_depth\{pool="busy"\} 3/);
      assert.match(first, /kestrel_pool_queue_depth\{pool="state"\} 0/);
      backlog = 7;
      assert.match(await metrics.text(), /kestrel_pool_queue_depth\{pool="busy"\} 7/, 'read again at every scrape');
    } finally {
      await pool.close();
    }
  });
});

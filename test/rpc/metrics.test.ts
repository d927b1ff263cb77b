import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { RPCMetrics } from '../../src/rpc/metrics.js';
import { createPooledStateProver } from '../../src/workers/state_prover.js';

describe('Prometheus metrics', () => {
  it("report each worker pool's queue depth, tasks completed and task time when scraped", async () => {
    const metrics = new RPCMetrics();
    const pool = createPooledStateProver(1);
    let busy = { queued: 3, completed: 10, taskSeconds: 0.5 };
    metrics.watchPool('busy', () => busy);
    metrics.watchPool('proofs', () => pool.stats());
    try {
      const first = await metrics.text();
      assert.match(first, /kestrel_pool_queue_depth\{pool="busy"\} 3/);
      assert.match(first, /kestrel_pool_tasks_completed_total\{pool="busy"\} 10/);
      assert.match(first, /kestrel_pool_task_seconds_total\{pool="busy"\} 0.5/);
      assert.match(first, /kestrel_pool_queue_depth\{pool="proofs"\} 0/);
      assert.match(first, /kestrel_pool_tasks_completed_total\{pool="proofs"\} 0/);
      busy = { queued: 7, completed: 12, taskSeconds: 0.75 };
      const second = await metrics.text();
      assert.match(second, /kestrel_pool_queue_depth\{pool="busy"\} 7/, 'read again at every scrape');
      assert.match(second, /kestrel_pool_tasks_completed_total\{pool="busy"\} 12/);
      assert.match(second, /kestrel_pool_task_seconds_total\{pool="busy"\} 0.75/);
      await assert.rejects(
        pool.prove({ dataPath: '/nonexistent-kestrel-path', expectedRoot: Buffer.alloc(32), keys: [] }),
      );
      assert.match(
        await metrics.text(),
        /kestrel_pool_tasks_completed_total\{pool="proofs"\} 1/,
        'a failed task is answered too',
      );
    } finally {
      await pool.close();
    }
  });

  it('count requests and bucket their latency exactly as a prom-client Counter and Histogram would', async () => {
    const metrics = new RPCMetrics();
    const registry = new Registry();
    const requests = new Counter({
      name: 'kestrel_rpc_requests_total',
      help: 'x',
      labelNames: ['method', 'transport', 'outcome'],
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'kestrel_rpc_request_duration_seconds',
      help: 'x',
      labelNames: ['method'],
      buckets: metrics.duration.bounds as number[],
      registers: [registry],
    });
    const seconds = [0.00005, 0.0001, 0.0003, 0.002, 0.7, 1, 3];
    const http = metrics.successRecorder('a_b', 'http');
    for (const [i, s] of seconds.entries()) {
      if (i % 2 === 0) http(s);
      else {
        metrics.observeDuration('a_b', s);
        metrics.countRequest('a_b', 'http', 'success');
      }
      requests.inc({ method: 'a_b', transport: 'http', outcome: 'success' });
      duration.observe({ method: 'a_b' }, s);
    }
    metrics.countRequest('nope_x', 'ws', 'not_found');
    requests.inc({ method: 'nope_x', transport: 'ws', outcome: 'not_found' });
    const lines = (text: string, name: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith(name))
        .map((l) => l.replace(/\{(.*)\}/, (_m, labels: string) => `{${labels.split(',').sort().join(',')}}`))
        .sort();
    const ours = await metrics.text();
    const theirs = await registry.metrics();
    for (const name of ['kestrel_rpc_requests_total', 'kestrel_rpc_request_duration_seconds'])
      assert.deepEqual(lines(ours, name), lines(theirs, name));
    assert.ok(lines(ours, 'kestrel_rpc_request_duration_seconds_bucket').length === metrics.duration.bounds.length + 1);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blsPopVerify } from '../../src/lib/crypto/bls.js';
import { prefetchProofsOfPossession } from '../../src/workers/pop_prefetch.js';
import { ThreadPool } from '../../src/workers/thread_pool.js';
import { devValidators } from '../helpers/devnet.js';
import type { ThreadTaskPayload } from '../helpers/thread_task.js';

const task = new URL('../helpers/thread_task.js', import.meta.url);

describe('ThreadPool', () => {
  it('runs tasks on its threads, transfers buffers, reports task errors and survives a thread that dies', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 2);
    try {
      assert.deepEqual(await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run({ op: 'double', value: i }))), Array.from({ length: 20 }, (_, i) => i * 2));
      const bytes = new Uint8Array(new ArrayBuffer(1000));
      assert.equal(await pool.run({ op: 'length', bytes }, [bytes.buffer]), 1000);
      assert.equal(bytes.byteLength, 0, 'the buffer was moved, not copied');
      await assert.rejects(pool.run({ op: 'throw' }), /the task refused/);
      await assert.rejects(pool.run({ op: 'exit' }), /exited with code 3/);
      // the dead thread was replaced: both threads answer again
      assert.deepEqual(await Promise.all([1, 2, 3, 4].map((value) => pool.run({ op: 'double', value }))), [2, 4, 6, 8]);
      assert.equal(pool.queueSize, 0);
    } finally {
      await pool.close();
    }
    await assert.rejects(pool.run({ op: 'double', value: 1 }), /closed/);
  });

  it('a task module that cannot load fails the tasks and then every run, without restarting threads', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(new URL('../helpers/no_such_task.js', import.meta.url), 1);
    try {
      await assert.rejects(pool.run({ op: 'double', value: 1 }), /exited|Cannot find module|ERR_MODULE_NOT_FOUND/);
      await assert.rejects(pool.run({ op: 'double', value: 2 }), /exited|Cannot find module|ERR_MODULE_NOT_FOUND/);
    } finally {
      await pool.close();
    }
  });

  it('refuses a thread count that is not a positive integer', () => {
    assert.throws(() => new ThreadPool(task, 0), /positive integer/);
    assert.throws(() => new ThreadPool(task, 1.5), /positive integer/);
  });
});

describe('proofs of possession checked on worker threads', () => {
  it('are remembered with their own verdicts: valid ones true, a proof under another key false', async () => {
    const keys = devValidators().slice(40, 49);
    const items = keys.map((v, i) => ({
      pk: Buffer.from(v.plain.blsKey, 'hex'),
      // every third one carries the next validator's proof
      proof: Buffer.from((i % 3 === 2 ? keys[(i + 1) % keys.length]! : v).plain.blsProofOfPossession, 'hex'),
    }));
    await prefetchProofsOfPossession(items, 2);
    assert.deepEqual(
      items.map(({ pk, proof }) => blsPopVerify(pk, proof)),
      items.map((_, i) => i % 3 !== 2),
    );
  });
});

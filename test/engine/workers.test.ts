import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { destroyLoaded, LOADED_TASK, workerPool } from '../../src/workers/piscina_pool.js';
import { TASKS_PER_THREAD, ThreadPool } from '../../src/workers/thread_pool.js';
import type { ThreadTaskPayload } from '../helpers/thread_task.js';

const task = new URL('../helpers/thread_task.js', import.meta.url);

describe('ThreadPool', () => {
  it('runs tasks on its threads, transfers buffers, reports task errors and survives a thread that dies', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 2);
    try {
      assert.deepEqual(
        await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run({ op: 'double', value: i }))),
        Array.from({ length: 20 }, (_, i) => i * 2),
      );
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

  it('refuses a thread count that is not a positive integer, and a niceness outside 0..19', () => {
    assert.throws(() => new ThreadPool(task, 0), /positive integer/);
    assert.throws(() => new ThreadPool(task, 1.5), /positive integer/);
    assert.throws(() => new ThreadPool(task, 1, { niceness: 20 }), /niceness/);
    assert.throws(() => new ThreadPool(task, 1, { niceness: -1 }), /niceness/);
  });

  it('a thread busy with a long task holds at most TASKS_PER_THREAD - 1 tasks behind it; the others go to the free thread', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 2);
    try {
      await Promise.all([1, 2].map((value) => pool.run({ op: 'double', value })));
      const done: string[] = [];
      const long = pool.run({ op: 'busy', ms: 400 }).then(() => done.push('long'));
      const short = Array.from({ length: 10 }, (_, i) =>
        pool.run({ op: 'busy', ms: 5 }).then(() => done.push(`short ${i}`)),
      );
      assert.ok(pool.queueSize > 0);
      await Promise.all([long, ...short]);
      assert.ok(done.indexOf('long') >= 10 - (TASKS_PER_THREAD - 1), `finished in the order ${done.join(', ')}`);
    } finally {
      await pool.close();
    }
  });

  it('with weightAhead, a busy thread takes tasks beyond TASKS_PER_THREAD while the weight it holds is below it', async () => {
    /** How many of 10 short tasks of `weight` finished after a long one the first thread runs. */
    const behindLong = async (weightAhead: number, weight: number): Promise<number> => {
      const pool = new ThreadPool<ThreadTaskPayload, number>(task, 2, { weightAhead });
      try {
        await Promise.all([1, 2].map((value) => pool.run({ op: 'double', value })));
        const done: string[] = [];
        const long = pool.run({ op: 'busy', ms: 400 }).then(() => done.push('long'));
        const short = Array.from({ length: 10 }, (_, i) =>
          pool.run({ op: 'busy', ms: 5 }, [], weight).then(() => done.push(`short ${i}`)),
        );
        await Promise.all([long, ...short]);
        return 10 - done.indexOf('long');
      } finally {
        await pool.close();
      }
    };
    // the two threads share the short tasks by weight: about half wait behind the long one
    assert.ok((await behindLong(64, 8)) >= 4);
    // tasks heavier than the weight ahead: TASKS_PER_THREAD rules
    assert.ok((await behindLong(64, 100)) <= TASKS_PER_THREAD - 1);
    assert.throws(() => new ThreadPool(task, 1, { weightAhead: -1 }), /weightAhead/);
    assert.throws(() => new ThreadPool(task, 1, { weightAhead: Number.NaN }), /weightAhead/);
  });

  it('runs its threads nicer by the niceness asked for (Linux keeps it per thread)', {
    skip: process.platform !== 'linux',
  }, async () => {
    const before = getPriority(0);
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 1, { niceness: 7 });
    try {
      assert.equal(await pool.run({ op: 'nice' }), Math.min(19, before + 7));
      assert.equal(getPriority(0), before, 'the main thread keeps its own');
    } finally {
      await pool.close();
    }
  });
});

describe('ThreadPool: threads are never ended while their modules load (src/workers/startup.ts)', () => {
  const slowTask = new URL('../helpers/slow_loading_task.js', import.meta.url);
  const markerPath = (): { dir: string; marker: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'kestrel-startup-'));
    return { dir, marker: join(dir, 'loaded') };
  };

  it('a pool closed right after it started lets its thread finish loading, then ends it', async () => {
    const { dir, marker } = markerPath();
    process.env.KESTREL_TEST_LOADED_MARKER = marker;
    try {
      const pool = new ThreadPool<number, number>(slowTask, 1);
      await pool.close();
      assert.ok(existsSync(marker), 'the task module finished loading before its thread was terminated');
      await assert.rejects(pool.run(1), /closed/);
    } finally {
      delete process.env.KESTREL_TEST_LOADED_MARKER;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the state prover task module answers the loaded task a Piscina pool is destroyed after', async () => {
    const pool = workerPool('state_proof_task.js', 1);
    assert.equal(await pool.run(undefined, { name: LOADED_TASK }), true);
    await destroyLoaded(pool);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Mutex } from '../../src/lib/mutex.js';

describe('Mutex', () => {
  it('runs tasks one at a time in the order asked, whatever each one waits for', async () => {
    const mutex = new Mutex();
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`start ${name}`);
      await sleep(ms);
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      mutex.runExclusive(task('a', 20)),
      mutex.runExclusive(task('b', 1)),
      mutex.runExclusive(task('c', 5)),
    ]);
    assert.deepEqual(results, ['a', 'b', 'c']);
    assert.deepEqual(events, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    assert.equal(mutex.pending, 0);
  });

  it('rejects with a failing task’s error and runs the next tasks', async () => {
    const mutex = new Mutex();
    const failing = mutex.runExclusive(async () => {
      throw new Error('boom');
    });
    const next = mutex.runExclusive(() => 'ran');
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'ran');
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DataPathInUseError, DataPathLock, LOCK_FILE } from '../../src/main/lock/data_path_lock.js';
import { processIdentity, stillRunning } from '../../src/main/lock/process_identity.js';
import { tempDataPath } from '../helpers/state.js';

const lockModule = new URL('../../src/main/lock/data_path_lock.js', import.meta.url).href;
const onLinux = existsSync('/proc/self/stat');

const holderIn = (dataPath: string): { pid: number; startedAt: string } =>
  JSON.parse(readFileSync(join(dataPath, LOCK_FILE), 'utf8')) as { pid: number; startedAt: string };
const writeLock = (dataPath: string, content: unknown): void =>
  writeFileSync(join(dataPath, LOCK_FILE), typeof content === 'string' ? content : JSON.stringify(content));

/** A process that has exited (and been reaped): its pid names nobody now. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
};

describe('data path lock', () => {
  it('is taken with this process and the time, and removed on release', () => {
    const dataPath = tempDataPath();
    const lock = DataPathLock.acquire(dataPath);
    const holder = holderIn(dataPath);
    assert.equal(holder.pid, process.pid);
    assert.ok(Math.abs(Date.parse(holder.startedAt) - Date.now()) < 5000);
    lock.release();
    assert.equal(existsSync(join(dataPath, LOCK_FILE)), false);
  });

  it('refuses a data path whose lock holder runs, naming its pid and start time', async () => {
    const dataPath = tempDataPath();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    await once(child, 'spawn');
    try {
      writeLock(dataPath, { ...processIdentity(child.pid), startedAt: '2025-01-02T03:04:05.000Z' });
      assert.throws(
        () => DataPathLock.acquire(dataPath),
        (e: unknown) =>
          e instanceof DataPathInUseError &&
          e.message.includes(`process ${child.pid}, started 2025-01-02T03:04:05.000Z`) &&
          e.message.includes(dataPath),
      );
      assert.equal(holderIn(dataPath).pid, child.pid, 'the holder keeps its lock');
    } finally {
      child.kill();
    }
  });

  it('refuses a second lock in the same process while the first is held', () => {
    const dataPath = tempDataPath();
    const lock = DataPathLock.acquire(dataPath);
    assert.throws(() => DataPathLock.acquire(dataPath), new RegExp(`process ${process.pid}, started`));
    lock.release();
    DataPathLock.acquire(dataPath).release();
  });

  it('takes over the lock of a process that is gone', async () => {
    const dataPath = tempDataPath();
    const pid = await deadPid();
    writeLock(dataPath, { pid, startedAt: '2025-01-02T03:04:05.000Z' });
    const lock = DataPathLock.acquire(dataPath);
    assert.equal(holderIn(dataPath).pid, process.pid);
    lock.release();
  });

  it('takes over the lock of a pid that now names another process (Linux: another start time)', {
    skip: !onLinux && 'needs /proc',
  }, () => {
    const dataPath = tempDataPath();
    const me = processIdentity();
    assert.ok(stillRunning(me));
    const earlier = { ...me, startTicks: String(Number(me.startTicks) - 1) };
    assert.equal(stillRunning(earlier), false);
    writeLock(dataPath, { ...earlier, startedAt: '2025-01-02T03:04:05.000Z' });
    const lock = DataPathLock.acquire(dataPath);
    assert.notEqual(holderIn(dataPath).startedAt, '2025-01-02T03:04:05.000Z');
    lock.release();
  });

  it('takes over a lock file that holds no readable holder', () => {
    const dataPath = tempDataPath();
    writeLock(dataPath, '{"pid":');
    DataPathLock.acquire(dataPath).release();
  });

  it('release leaves a lock that is no longer its own', () => {
    const dataPath = tempDataPath();
    const lock = DataPathLock.acquire(dataPath);
    writeLock(dataPath, { pid: 1, startedAt: '2025-01-02T03:04:05.000Z' });
    lock.release();
    assert.equal(holderIn(dataPath).pid, 1);
  });

  it('is removed when its process exits without releasing it (a start that failed)', async () => {
    const dataPath = tempDataPath();
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { DataPathLock } from ${JSON.stringify(lockModule)}; DataPathLock.acquire(${JSON.stringify(dataPath)}); process.exit(3);`,
    ]);
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 3);
    assert.equal(existsSync(join(dataPath, LOCK_FILE)), false);
  });
});

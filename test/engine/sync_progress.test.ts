import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SyncProgress } from '../../src/engine/sync/progress.js';

describe('synchronization progress', () => {
  it('logs height, target and blocks/s at most every 2 s, and reports them for /metrics', () => {
    let now = 1_000_000;
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const progress = new SyncProgress(
      { info: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } as never,
      () => now,
    );
    assert.deepEqual(progress.snapshot(), { target: 0, height: 0, blocks: 0, blocksPerSecond: 0 });
    progress.begin(500, 100);
    for (let h = 101; h <= 300; h++) {
      now += 25;
      progress.committed(h);
    }
    // 200 blocks in 5 s: a line at 2 s and at 4 s
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['Synchronizing: height 180 of 500 (40.0 blocks/s)', 'Synchronizing: height 260 of 500 (40.0 blocks/s)'],
    );
    assert.deepEqual(progress.snapshot(), { target: 500, height: 300, blocks: 200, blocksPerSecond: 40 });
    progress.end();
    assert.deepEqual(progress.snapshot(), { target: 0, height: 300, blocks: 200, blocksPerSecond: 0 });
  });

  it('moves the target up to the height reached when the synchronization goes past the block that started it', () => {
    let now = 1_000_000;
    const lines: string[] = [];
    const progress = new SyncProgress({ info: (_obj: unknown, msg: string) => lines.push(msg) } as never, () => now);
    progress.begin(400, 390);
    for (let h = 391; h <= 406; h++) {
      now += 250;
      progress.committed(h);
    }
    assert.equal(progress.snapshot().target, 406);
    assert.ok(
      lines.every((l) => !/height 40[1-6] of 400/.test(l)),
      lines.join('; '),
    );
  });
});

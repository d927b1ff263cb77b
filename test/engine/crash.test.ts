import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runAndKill } from '../helpers/kill.js';
import { Rng } from '../helpers/random.js';
import { openState, recomputeRoot, tempDataPath } from '../helpers/state.js';

const writer = fileURLToPath(new URL('../helpers/crash_writer.js', import.meta.url));

describe('crash safety', () => {
  it('20 SIGKILLs at random points: the store reopens at the last committed block with a consistent root and no partial block', async () => {
    const dataPath = tempDataPath();
    const rng = new Rng(2024);
    for (let round = 0; round < 20; round++) {
      const reported = await runAndKill(writer, [dataPath], 5 + rng.int(150));
      const db = openState(dataPath);
      const height = db.height!;
      assert.ok(height >= reported, `round ${round}: reported ${reported} committed but the store is at ${height}`);
      assert.equal(
        db.root.toString('hex'),
        recomputeRoot(db).toString('hex'),
        `round ${round}: root does not match the state`,
      );
      const blocks = [...db.dbs.blocks.getRange({})];
      assert.equal(blocks.length, height + 1, `round ${round}: blocks 0..${height} expected, found ${blocks.length}`);
      assert.equal(Buffer.from(blocks[blocks.length - 1]!.value).toString('hex'), db.root.toString('hex'));
      db.dbs.root.close();
    }
  });
});

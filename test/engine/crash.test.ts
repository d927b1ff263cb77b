import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openState, recomputeRoot, tempDataPath } from '../helpers/state.js';
import { Rng } from '../helpers/random.js';

const writer = fileURLToPath(new URL('../helpers/crash_writer.js', import.meta.url));

/** Starts the writer, waits a random time after its first commit, kills it with SIGKILL; returns the last height it reported. */
const runAndKill = (dataPath: string, delayMs: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, dataPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = -1;
    let buffered = '';
    let timer: NodeJS.Timeout | undefined;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) last = Number(line.split(' ')[1]);
      timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });

describe('crash safety', () => {
  it('20 SIGKILLs at random points: the store reopens at the last committed block with a consistent root and no partial block', async () => {
    const dataPath = tempDataPath();
    const rng = new Rng(2024);
    for (let round = 0; round < 20; round++) {
      const reported = await runAndKill(dataPath, 5 + rng.int(150));
      const db = openState(dataPath);
      const height = db.height!;
      assert.ok(height >= reported, `round ${round}: reported ${reported} committed but the store is at ${height}`);
      assert.equal(db.root.toString('hex'), recomputeRoot(db).toString('hex'), `round ${round}: root does not match the state`);
      const blocks = [...db.dbs.blocks.getRange({})];
      assert.equal(blocks.length, height + 1, `round ${round}: blocks 0..${height} expected, found ${blocks.length}`);
      assert.equal(Buffer.from(blocks[blocks.length - 1]!.value).toString('hex'), db.root.toString('hex'));
      db.dbs.root.close();
    }
  });
});

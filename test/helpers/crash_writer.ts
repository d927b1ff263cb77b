// Child process for the crash test: commits blocks forever, printing each committed height; the test kills it with SIGKILL.
import { sha256 } from '../../src/lib/crypto/hash.js';
import { openState } from './state.js';

const dataPath = process.argv[2]!;
const db = openState(dataPath);
const prefix = Buffer.from('0000000a0000', 'hex');
const keyFor = (n: number): Buffer => Buffer.concat([prefix, sha256(Buffer.from(String(n))).subarray(0, 8)]);

for (let height = (db.height ?? -1) + 1; ; height++) {
  const block = db.newOverlay();
  for (let i = 0; i < 200; i++) {
    const n = (height * 7919 + i * 104729) % 5000;
    if (i % 10 === 9) block.del(keyFor(n));
    else block.set(keyFor(n), sha256(Buffer.from(`${height}:${i}`)));
  }
  const prepared = db.prepare(block);
  db.commit(prepared, height, (dbs) => {
    const h = Buffer.alloc(4);
    h.writeUInt32BE(height);
    dbs.blocks.putSync(h, prepared.root);
  });
  process.stdout.write(`committed ${height}\n`);
}

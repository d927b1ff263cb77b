// A floor for anything that commits a block: one durable LMDB write transaction (fsync before it returns,
// as Kestrel's databases are opened) of a block-sized value, on the same disk as the nodes' data paths.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { tempDataPath } from '../test/helpers/state.js';

/** Milliseconds of each of `count` durable transactions that write `bytes` bytes under a new key. */
export const durableCommitTimes = (count = 100, bytes = 1024): number[] => {
  const dir = tempDataPath();
  const db = open<Buffer, Buffer>({
    path: join(dir, 'floor.lmdb'),
    encoding: 'binary',
    keyEncoding: 'binary',
    noSync: false,
    compression: false,
  });
  const value = Buffer.alloc(bytes, 7);
  const times: number[] = [];
  try {
    for (let i = 0; i < count + 10; i++) {
      const key = Buffer.alloc(4);
      key.writeUInt32BE(i);
      const started = performance.now();
      db.transactionSync(() => {
        db.putSync(key, value);
      });
      if (i >= 10) times.push(performance.now() - started);
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return times;
};

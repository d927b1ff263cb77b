import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { open } from 'lmdb';

/**
 * A plugin's own LMDB environment, `<dir>/<name>.lmdb`, binary keys and values. noSync: a commit
 * reaches the OS at once (a killed process loses nothing) but is not flushed to disk one by one,
 * as Klayr's plugin stores (leveldb, unsynced writes); they take writes per block, which a sync
 * each would slow tenfold.
 */
export const openPluginDatabase = (dir: string, name: string): RootDatabase<Buffer, Buffer> => {
  mkdirSync(dir, { recursive: true });
  return open<Buffer, Buffer>({
    path: join(dir, `${name}.lmdb`),
    encoding: 'binary',
    keyEncoding: 'binary',
    compression: false,
    noSync: true,
  });
};

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import { open } from 'lmdb';
import { releaseCommittedReads } from './committed_reads.js';
import type { DatabaseName } from './tables.js';
import { DATABASE_NAMES } from './tables.js';
import { installWriteBehind, writeBehindOf } from './write_behind.js';

export type BinaryDB = Database<Buffer, Buffer>;

/** The named databases of one LMDB environment (what each holds: tables.ts). */
export type KestrelDatabases = { readonly root: RootDatabase<Buffer, Buffer> } & {
  readonly [name in DatabaseName]: BinaryDB;
};

export interface OpenOptions {
  readOnly?: boolean;
  /**
   * false: the handles of a thread beside the node's writer (the RPC front's reads): opened as the
   * writer opens them (one LMDB environment per process, shared by lmdb-js), without the writer's
   * write-behind layer; the writer's pending sets reach them through a PendingMirror.
   */
  writer?: boolean;
}

/** Opens (creating unless read-only) the environment at `<dataPath>/data/kestrel.lmdb`. */
export const openDatabases = (dataPath: string, options: OpenOptions = {}): KestrelDatabases => {
  const dir = join(dataPath, 'data');
  if (options.readOnly !== true) mkdirSync(dir, { recursive: true });
  const root = open<Buffer, Buffer>({
    path: join(dir, 'kestrel.lmdb'),
    encoding: 'binary',
    keyEncoding: 'binary',
    maxDbs: 16,
    readOnly: options.readOnly === true,
    // a committed transaction is on disk before commit returns
    noSync: false,
    compression: false,
  });
  const dbs = Object.fromEntries(
    DATABASE_NAMES.map((name) => [
      name,
      root.openDB<Buffer, Buffer>({ name, encoding: 'binary', keyEncoding: 'binary' }),
    ]),
  );
  const opened = { root, ...dbs } as KestrelDatabases;
  // a flush renews the held read transaction: committed reads then see what it wrote
  if (options.readOnly !== true && options.writer !== false)
    installWriteBehind(opened, () => releaseCommittedReads(opened));
  return opened;
};

/**
 * Closes a node's environment: writes still pending (write-behind) reach LMDB first, then the
 * read transaction held for committed reads ends (closing LMDB under an open read transaction can
 * abort the process).
 */
export const closeDatabases = async (dbs: KestrelDatabases): Promise<void> => {
  try {
    await writeBehindOf(dbs.root)?.drain();
  } finally {
    releaseCommittedReads(dbs);
    await dbs.root.close();
  }
};

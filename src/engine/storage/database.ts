import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import type { Database, RootDatabase } from 'lmdb';

export type BinaryDB = Database<Buffer, Buffer>;

/** The named databases of one LMDB environment (see DESIGN.md "Storage"). */
export interface KestrelDatabases {
  readonly root: RootDatabase<Buffer, Buffer>;
  /** module substores: storePrefix(4) || substorePrefix(2) || key -> value */
  readonly state: BinaryDB;
  /** state tree nodes by hash */
  readonly smt: BinaryDB;
  /** state bookkeeping: current height and root, per-height diffs for revert */
  readonly meta: BinaryDB;
  readonly blocks: BinaryDB;
  readonly events: BinaryDB;
  readonly generator: BinaryDB;
  /** engine-only state outside the state tree (BFT votes and parameters), written with each block */
  readonly engine: BinaryDB;
}

const NAMES = ['state', 'smt', 'meta', 'blocks', 'events', 'generator', 'engine'] as const;

/** Opens (creating unless read-only) the environment at `<dataPath>/data/kestrel.lmdb`. */
export const openDatabases = (dataPath: string, options: { readOnly?: boolean } = {}): KestrelDatabases => {
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
  const dbs = Object.fromEntries(NAMES.map((name) => [name, root.openDB<Buffer, Buffer>({ name, encoding: 'binary', keyEncoding: 'binary' })]));
  return { root, ...dbs } as unknown as KestrelDatabases;
};

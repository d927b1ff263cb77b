/**
 * A data path's blockchain data as one unit, for Klayr Core's `blockchain:*` commands: what a reset
 * removes, what an export archives, what an import brings, what the hash covers. Everything in the
 * environment is chain data except the node's own records (NODE_RECORDS), which a reset and an import
 * keep and an export never carries: a snapshot handed to others must not hold a validator's keys or
 * its previously generated info, and a node must not lose them (Klayr keeps them in generator.db and
 * node.db, apart from the blockchain and state databases its commands touch).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { KestrelDatabases } from './database.js';
import { closeDatabases, openDatabases } from './database.js';
import type { DatabaseName, Table } from './tables.js';
import { DATABASE_NAMES, TABLES } from './tables.js';

export const NODE_RECORDS: readonly Table[] = [
  TABLES.generatorKeys,
  TABLES.generatedInfo,
  TABLES.hashOnions,
  TABLES.usedHashOnions,
  TABLES.networkSecret,
  TABLES.networkTriedPeers,
];

export const ENVIRONMENT_FILE = 'kestrel.lmdb';

/** `<dataPath>/data/kestrel.lmdb`, the environment openDatabases opens. */
export const environmentFile = (dataPath: string): string => join(dataPath, 'data', ENVIRONMENT_FILE);

export const hasEnvironment = (dataPath: string): boolean => existsSync(environmentFile(dataPath));

const isNodeRecord = (db: DatabaseName, key: Buffer): boolean =>
  NODE_RECORDS.some(
    (t) => t.db === db && key.length >= t.prefix.length && t.prefix.equals(key.subarray(0, t.prefix.length)),
  );

const holdsNodeRecords = (db: DatabaseName): boolean => NODE_RECORDS.some((t) => t.db === db);

export interface CopyProgress {
  /** Entries copied so far, after each batch. */
  copied(entries: number): void;
}

/** The number of entries `copyRecords` visits (the databases' entry counts). */
export const entryCount = (dbs: KestrelDatabases): number =>
  DATABASE_NAMES.reduce((sum, name) => sum + (dbs[name].getStats() as { entryCount: number }).entryCount, 0);

/**
 * Copies the entries of `from` that `keep(db, key)` accepts into `to`, every database read in one
 * read transaction (one consistent state even while a node commits to `from`).
 */
export const copyRecords = async (
  from: KestrelDatabases,
  to: KestrelDatabases,
  keep: (db: DatabaseName, key: Buffer) => boolean,
  progress?: CopyProgress,
): Promise<number> => {
  const transaction = from.root.useReadTransaction();
  let visited = 0;
  try {
    for (const name of DATABASE_NAMES) {
      let written: Promise<boolean> | undefined;
      for (const { key, value } of from[name].getRange({ transaction })) {
        if (keep(name, key)) written = to[name].put(key, value);
        // lmdb-js batches the puts on its write thread: wait for each batch, so memory stays bounded
        if (++visited % 10_000 === 0) {
          await written;
          progress?.copied(visited);
        }
      }
      await written;
    }
  } finally {
    transaction.done();
  }
  await to.root.flushed;
  progress?.copied(visited);
  return visited;
};

/** Copies the blockchain data of `from` (everything but the node's own records) into the empty `to`. */
export const copyChainData = (from: KestrelDatabases, to: KestrelDatabases, progress?: CopyProgress): Promise<number> =>
  copyRecords(from, to, (db, key) => !isNodeRecord(db, key), progress);

/** Copies the node's own records of `from` into `to`. */
export const copyNodeRecords = (from: KestrelDatabases, to: KestrelDatabases): Promise<number> =>
  copyRecords(from, to, isNodeRecord);

/** Removes every entry that is not one of the node's own records: `blockchain:reset`. */
export const removeChainData = (dbs: KestrelDatabases): void => {
  for (const name of DATABASE_NAMES) {
    const db = dbs[name];
    if (!holdsNodeRecords(name)) {
      db.clearSync();
      continue;
    }
    db.transactionSync(() => {
      for (const key of db.getKeys({ snapshot: false })) if (!isNodeRecord(name, key)) db.removeSync(key);
    });
  }
};

/** Removes the node's own records (what an imported archive from elsewhere might carry). */
export const removeNodeRecords = (dbs: KestrelDatabases): void => {
  for (const table of NODE_RECORDS) {
    const db = dbs[table.db];
    db.transactionSync(() => {
      for (const key of db.getKeys({ start: table.prefix, snapshot: false })) {
        if (!isNodeRecord(table.db, key)) break;
        db.removeSync(key);
      }
    });
  }
};

/**
 * `blockchain:hash`: the SHA-256 of the block store's values in key order (every block, the
 * height and transaction indexes, the last height). Two Kestrel nodes with the same blocks print
 * the same hash, whatever each pruned or kept beside them (events, diffs, proofs).
 */
export const blockStoreHash = (dbs: KestrelDatabases): Buffer => {
  const hash = createHash('sha256');
  const transaction = dbs.root.useReadTransaction();
  try {
    for (const { value } of dbs.blocks.getRange({ transaction })) hash.update(value);
  } finally {
    transaction.done();
  }
  return hash.digest();
};

/** Opens the data path's environment read-only, or explains that there is none. */
export const openExisting = (dataPath: string, options: { readOnly: boolean }): KestrelDatabases => {
  if (!hasEnvironment(dataPath))
    throw new Error(`No blockchain data at ${dataPath}: ${environmentFile(dataPath)} does not exist.`);
  return options.readOnly ? openDatabases(dataPath, { readOnly: true }) : openDatabases(dataPath, { writer: false });
};

export { closeDatabases };

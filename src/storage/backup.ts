import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KestrelDatabases } from './database.js';
import { closeDatabases, openDatabases } from './database.js';
import { readCommittedState } from './state_roots.js';
import { DATABASE_NAMES } from './tables.js';

/**
 * The state backup of `system.backup.height` (Klayr's `<dataPath>/backup`): a copy of the node's
 * LMDB environment as it was when that height was committed, in Kestrel's layout
 * (`<dataPath>/backup/data/kestrel.lmdb`), and `manifest.json`, written last: a backup without
 * a manifest is an incomplete copy.
 */
export interface BackupManifest {
  height: number;
  /** hex */
  blockID: string;
  /** hex: the state root committed at `height` (the block header's stateRoot) */
  stateRoot: string;
  /** hex */
  chainID: string;
  /** ISO time the copy completed */
  createdAt: string;
}

export const backupDir = (dataPath: string): string => join(dataPath, 'backup');
const manifestFile = (dataPath: string): string => join(backupDir(dataPath), 'manifest.json');

const HEX = /^(?:[0-9a-f]{2})+$/;

/** The manifest of the data path's backup; undefined when there is none (no copy, or one that never completed). */
export const readBackupManifest = (dataPath: string): BackupManifest | undefined => {
  const file = manifestFile(dataPath);
  if (!existsSync(file)) return undefined;
  let parsed: Partial<Record<keyof BackupManifest, unknown>>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
  } catch (e) {
    throw new Error(`Backup manifest ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const { height, blockID, stateRoot, chainID, createdAt } = parsed;
  const hex = (value: unknown, bytes: number): value is string =>
    typeof value === 'string' && HEX.test(value) && value.length === bytes * 2;
  if (
    !Number.isSafeInteger(height) ||
    (height as number) < 0 ||
    !hex(blockID, 32) ||
    !hex(stateRoot, 32) ||
    !hex(chainID, 4) ||
    typeof createdAt !== 'string'
  ) {
    throw new Error(
      `Backup manifest ${file} is malformed: it needs height (integer >= 0), blockID and stateRoot (32-byte hex), chainID (4-byte hex) and createdAt`,
    );
  }
  return { height: height as number, blockID, stateRoot, chainID, createdAt };
};

export interface OpenedBackup {
  manifest: BackupManifest;
  /** The copied environment, read-only. */
  dbs: KestrelDatabases;
  close(): Promise<void>;
}

/** Opens the data path's complete backup read-only, checked against its manifest. */
export const openBackup = (dataPath: string): OpenedBackup => {
  const dir = backupDir(dataPath);
  if (!existsSync(dir))
    throw new Error(
      `No backup under ${dataPath}: ${dir} does not exist (set system.backup.height and let the node commit that height)`,
    );
  const manifest = readBackupManifest(dataPath);
  if (manifest === undefined)
    throw new Error(`The backup under ${dir} is incomplete: it has no manifest.json (the copy did not finish)`);
  if (!existsSync(join(dir, 'data', 'kestrel.lmdb')))
    throw new Error(`The backup under ${dir} has a manifest but no data/kestrel.lmdb`);
  const dbs = openDatabases(dir, { readOnly: true });
  const committed = readCommittedState(dbs);
  if (committed?.height !== manifest.height || committed.root.toString('hex') !== manifest.stateRoot) {
    void dbs.root.close();
    throw new Error(
      `The backup under ${dir} does not match its manifest: it holds the state of height ${String(committed?.height)}, the manifest names height ${manifest.height} with root ${manifest.stateRoot}`,
    );
  }
  return { manifest, dbs, close: () => closeDatabases(dbs) };
};

/** What a backup copies: the node's environment right after it committed `height`. */
export interface BackupSource {
  dbs: KestrelDatabases;
  height: number;
  blockID: Buffer;
  stateRoot: Buffer;
  chainID: Buffer;
}

export interface BackupOptions {
  /** Entries copied per turn of the event loop (the rest of the node runs between turns). */
  entriesPerTurn?: number;
  /** Bytes (keys and values) after which a turn ends early. */
  bytesPerTurn?: number;
  /** Called after each turn's copy with how long it held the thread, in ms. */
  onTurn?: (ms: number) => void;
}

export interface BackupResult {
  manifest: BackupManifest;
  entries: number;
}

export class BackupAbortedError extends Error {
  override readonly name = 'BackupAbortedError';
}

type ReadTransaction = ReturnType<KestrelDatabases['root']['useReadTransaction']>;

/** The last copy started into each backup directory. */
const copies = new Map<string, Promise<BackupResult>>();

/**
 * Copies the node's environment into `<dataPath>/backup`, replacing any backup there (as Klayr).
 * It must be called right after the commit of `source.height` and before the next commit: the
 * read transaction it opens synchronously pins that state, and the copy then proceeds in slices
 * between the node's other work while the node commits further blocks. The manifest is written
 * last; a copy cut short (the process killed, the node's environment closed) leaves none.
 */
export const writeBackup = (
  dataPath: string,
  source: BackupSource,
  options: BackupOptions = {},
): Promise<BackupResult> => {
  try {
    const transaction = source.dbs.root.useReadTransaction();
    const pinned = readCommittedState(source.dbs, { transaction });
    if (pinned?.height !== source.height || !pinned.root.equals(source.stateRoot)) {
      transaction.done();
      throw new Error(
        `Cannot back up height ${source.height} (state root ${source.stateRoot.toString('hex')}): the store's committed state is height ${String(pinned?.height)} with root ${String(pinned?.root.toString('hex'))}`,
      );
    }
    // a second backup (its height deleted and committed again) waits for the first: one copy writes the directory at a time
    const dir = backupDir(dataPath);
    const copy = (copies.get(dir) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => copyPinned(dataPath, source, transaction, options));
    copies.set(dir, copy);
    return copy;
  } catch (error) {
    return Promise.reject(error as Error);
  }
};

/** lmdb-js has it, its types do not. */
const isOpen = (dbs: KestrelDatabases): boolean =>
  (dbs.root as unknown as { isOperational(): boolean }).isOperational();

const copyPinned = async (
  dataPath: string,
  source: BackupSource,
  transaction: ReadTransaction,
  options: BackupOptions,
): Promise<BackupResult> => {
  const { dbs } = source;
  const perTurn = options.entriesPerTurn ?? 1000;
  const bytesPerTurn = options.bytesPerTurn ?? 4 * 1024 * 1024;
  const dir = backupDir(dataPath);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target = openDatabases(dir);
  let entries = 0;
  try {
    for (const name of DATABASE_NAMES) {
      let after: Buffer | undefined;
      for (;;) {
        // the node closing its environment ends the copy (the pinned transaction goes with it)
        if (!isOpen(dbs))
          throw new BackupAbortedError(
            `The node's database closed before the backup of height ${source.height} completed`,
          );
        const began = performance.now();
        const range = dbs[name].getRange({
          transaction,
          limit: perTurn,
          ...(after === undefined ? {} : { start: after, exclusiveStart: true }),
        });
        let count = 0;
        let bytes = 0;
        // lmdb-js batches these puts into transactions on its own write thread and syncs them there
        let written: Promise<boolean> | undefined;
        for (const { key, value } of range) {
          written = target[name].put(key, value);
          after = key;
          count++;
          bytes += key.length + value.length;
          // large values (blocks) end a slice early
          if (bytes >= bytesPerTurn) break;
        }
        options.onTurn?.(performance.now() - began);
        entries += count;
        await (written ?? nextTurn());
        if (count < perTurn && bytes < bytesPerTurn) break;
      }
    }
    await target.root.flushed;
  } finally {
    await target.root.close();
    if (isOpen(dbs)) transaction.done();
  }
  const manifest: BackupManifest = {
    height: source.height,
    blockID: source.blockID.toString('hex'),
    stateRoot: source.stateRoot.toString('hex'),
    chainID: source.chainID.toString('hex'),
    createdAt: new Date().toISOString(),
  };
  // written whole or not at all: the manifest's presence is the copy's completion
  const partial = `${manifestFile(dataPath)}.partial`;
  writeFileSync(partial, `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
  renameSync(partial, manifestFile(dataPath));
  return { manifest, entries };
};

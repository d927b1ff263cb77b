/**
 * blockchain:export's archive and blockchain:import's reading of it: a gzipped tar holding one
 * file, `kestrel.lmdb`, a fresh environment with the blockchain data only (storage/chain_data.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { create, extract, list } from 'tar';
import { BlockStore } from '../../../engine/chain/block_store.js';
import {
  copyChainData,
  copyNodeRecords,
  ENVIRONMENT_FILE,
  entryCount,
  environmentFile,
  openExisting,
  removeNodeRecords,
} from '../../../storage/chain_data.js';
import type { KestrelDatabases } from '../../../storage/database.js';
import { closeDatabases, openDatabases } from '../../../storage/database.js';
import { progressBar } from '../../migrate/progress_bar.js';

export const ARCHIVE_NAME = 'blockchain.tar.gz';

/** Klayr Core's archive holds its RocksDB databases, which Kestrel cannot read. */
const KLAYR_CORE_ENTRIES = /^(\.\/)?(blockchain|state)\.db(\/|$)/;

/** A scratch environment beside `dir`'s files (same file system, so a rename moves it). */
const scratchDataPath = (dir: string, label: string): string => {
  mkdirSync(dir, { recursive: true });
  return mkdtempSync(join(dir, `.kestrel-${label}-`));
};

const withDatabases = async <T>(dbs: KestrelDatabases, fn: (dbs: KestrelDatabases) => Promise<T> | T): Promise<T> => {
  try {
    return await fn(dbs);
  } finally {
    await closeDatabases(dbs);
  }
};

/** Writes `<outputDir>/blockchain.tar.gz` from the data path's environment; returns its path. */
export const exportBlockchain = async (dataPath: string, outputDir: string): Promise<string> => {
  const scratch = scratchDataPath(outputDir, 'export');
  const file = join(outputDir, ARCHIVE_NAME);
  try {
    const height = await withDatabases(openExisting(dataPath, { readOnly: true }), async (from) => {
      const height = new BlockStore(from).lastHeight();
      if (height === undefined) throw new Error(`No blocks at ${dataPath}: there is nothing to export.`);
      const step = progressBar().step('Copying the blockchain data', entryCount(from));
      let shown = 0;
      await withDatabases(openDatabases(scratch, { writer: false }), (to) =>
        copyChainData(from, to, {
          copied(entries) {
            step.tick(entries - shown);
            shown = entries;
          },
        }),
      );
      step.done();
      return height;
    });
    process.stderr.write(`Archiving blocks up to height ${height} from ${dataPath}\n`);
    const partial = `${file}.partial`;
    await create({ gzip: true, file: partial, cwd: dirname(environmentFile(scratch)), portable: true }, [
      ENVIRONMENT_FILE,
    ]);
    renameSync(partial, file);
    return file;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

/** Refuses an archive that is not exactly what blockchain:export writes (it reads only the entries' headers). */
export const checkArchive = async (archive: string): Promise<void> => {
  if (!archive.endsWith('.gz')) throw new Error('The blockchain data file must be a gzip file.');
  if (!existsSync(archive)) throw new Error(`There is no file at ${archive}.`);
  const entries: { path: string; type: string }[] = [];
  try {
    await list({ file: archive, strict: true, onReadEntry: (e) => entries.push({ path: e.path, type: e.type }) });
  } catch (e) {
    throw new Error(`${archive} is not a gzipped tar archive: ${(e as Error).message}`);
  }
  if (entries.some((e) => KLAYR_CORE_ENTRIES.test(e.path)))
    throw new Error(
      `${archive} is Klayr Core's blockchain archive (RocksDB state.db and blockchain.db), which Kestrel cannot read: import an archive of kestrel blockchain:export, or let the node sync from peers.`,
    );
  const expected =
    entries.length === 1 && entries[0].type === 'File' && entries[0].path.replace(/^\.\//, '') === ENVIRONMENT_FILE;
  if (!expected)
    throw new Error(
      `${archive} is not an archive of kestrel blockchain:export: it must hold exactly one file, ${ENVIRONMENT_FILE} (it holds ${entries.map((e) => e.path).join(', ') || 'nothing'}).`,
    );
};

/**
 * Replaces the data path's blockchain data with the archive's (checked by checkArchive) and returns the imported tip's
 * height. The node's own records at the data path go into the imported environment before it takes
 * the old one's place; any the archive carries are dropped. Refused without `force` when the data
 * path already holds blocks.
 */
export const importBlockchain = async (archive: string, dataPath: string, force: boolean): Promise<number> => {
  const target = environmentFile(dataPath);
  let existing: KestrelDatabases | undefined;
  try {
    existing = openExisting(dataPath, { readOnly: false });
  } catch {
    existing = undefined;
  }
  const scratch = scratchDataPath(dirname(target), 'import');
  try {
    if (existing !== undefined && new BlockStore(existing).lastHeight() !== undefined && !force)
      throw new Error(`There is already blockchain data at ${dataPath}. Use --force to override.`);
    const extracted = dirname(environmentFile(scratch));
    mkdirSync(extracted, { recursive: true });
    await extract({ file: archive, cwd: extracted, strict: true });
    const kept = existing;
    const height = await withDatabases(openDatabases(scratch, { writer: false }), async (imported) => {
      const height = new BlockStore(imported).lastHeight();
      if (height === undefined) throw new Error(`${archive} holds no blocks.`);
      removeNodeRecords(imported);
      if (kept !== undefined) await copyNodeRecords(kept, imported);
      return height;
    });
    if (existing !== undefined) await closeDatabases(existing);
    existing = undefined;
    rmSync(`${target}-lock`, { force: true });
    // one rename replaces the old environment, after the new one holds the node's records: a crash leaves one or the other
    renameSync(environmentFile(scratch), target);
    return height;
  } finally {
    if (existing !== undefined) await closeDatabases(existing);
    rmSync(scratch, { recursive: true, force: true });
  }
};

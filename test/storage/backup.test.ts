import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { StateDB } from '../../src/engine/state/state_db.js';
import type { BackupSource } from '../../src/storage/backup.js';
import {
  BackupAbortedError,
  backupDir,
  openBackup,
  readBackupManifest,
  writeBackup,
} from '../../src/storage/backup.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { readCommittedState } from '../../src/storage/state_roots.js';
import { DATABASE_NAMES } from '../../src/storage/tables.js';
import { commitFilledHeight, commitFilledHeights } from '../helpers/backup_state.js';
import { runAndKill } from '../helpers/kill.js';
import { openState, recomputeRoot, tempDataPath } from '../helpers/state.js';

const CHAIN_ID = Buffer.from('04000000', 'hex');
const BLOCK_ID = Buffer.alloc(32, 0xab);

/** Every entry of every database, as hex, to compare two environments. */
const contents = (dbs: KestrelDatabases): Record<string, [string, string][]> =>
  Object.fromEntries(
    DATABASE_NAMES.map((name) => [
      name,
      [...dbs[name].getRange()].map(({ key, value }): [string, string] => [key.toString('hex'), value.toString('hex')]),
    ]),
  );

const sourceAt = (db: StateDB): BackupSource => ({
  dbs: db.dbs,
  height: db.height!,
  blockID: BLOCK_ID,
  stateRoot: db.root,
  chainID: CHAIN_ID,
});

describe('writeBackup: a copy of the environment as committed at the backup height', () => {
  it('copies exactly that height while later heights commit between its slices, and opens read-only', async (t) => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    const { height, root } = commitFilledHeights(db, 4, 1000);
    const atHeight = contents(db.dbs);
    let slices = 0;
    const longest: number[] = [];
    const { manifest, entries } = await writeBackup(dataPath, sourceAt(db), {
      entriesPerTurn: 500,
      // the node goes on: a block commits after each slice of the copy
      onTurn: (ms) => {
        longest.push(ms);
        commitFilledHeight(db, height + ++slices, 50);
      },
    });
    assert.ok(slices > 10, `the copy ran in ${slices} slices`);
    t.diagnostic(`backup: ${entries} entries in ${slices} slices, the longest ${Math.max(...longest).toFixed(1)} ms`);
    assert.equal(db.height, height + slices, 'the store went on committing during the copy');
    assert.notDeepEqual(db.root, root);
    assert.equal(
      entries,
      Object.values(atHeight).reduce((n, list) => n + list.length, 0),
    );
    assert.deepEqual(
      { height: manifest.height, blockID: manifest.blockID, stateRoot: manifest.stateRoot, chainID: manifest.chainID },
      { height, blockID: BLOCK_ID.toString('hex'), stateRoot: root.toString('hex'), chainID: '04000000' },
    );
    assert.ok(Math.abs(Date.parse(manifest.createdAt) - Date.now()) < 60_000);
    assert.deepEqual(readBackupManifest(dataPath), manifest);
    assert.deepEqual(JSON.parse(readFileSync(join(backupDir(dataPath), 'manifest.json'), 'utf8')), manifest);

    const backup = openBackup(dataPath);
    try {
      assert.deepEqual(backup.manifest, manifest);
      assert.deepEqual(
        contents(backup.dbs),
        atHeight,
        'every database holds exactly what it held at the backup height',
      );
      assert.deepEqual(
        recomputeRoot(new StateDB(backup.dbs)),
        root,
        "the state entries hash to the backup height's root",
      );
      assert.deepEqual(readCommittedState(backup.dbs), { height, root, rootVersion: height });
      assert.throws(() => backup.dbs.state.putSync(Buffer.from('00'), Buffer.from('00')), 'opened read-only');
    } finally {
      await backup.close();
    }
  });

  it('ends a slice early at bytesPerTurn (large values such as blocks), and still copies everything', async () => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    commitFilledHeights(db, 2, 200);
    let slices = 0;
    const { entries } = await writeBackup(dataPath, sourceAt(db), {
      entriesPerTurn: 1000,
      bytesPerTurn: 2000,
      onTurn: () => slices++,
    });
    const all = contents(db.dbs);
    assert.equal(
      entries,
      Object.values(all).reduce((n, list) => n + list.length, 0),
    );
    assert.ok(slices > entries / 40, `${slices} slices of at most about 2,000 bytes for ${entries} entries`);
    const backup = openBackup(dataPath);
    assert.deepEqual(contents(backup.dbs), all);
    await backup.close();
  });

  it('replaces a backup of another height (as Klayr removes the old one first)', async () => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    commitFilledHeights(db, 2, 200);
    await writeBackup(dataPath, sourceAt(db));
    writeFileSync(join(backupDir(dataPath), 'stray-file'), 'left by the old backup');
    commitFilledHeight(db, 2, 200);
    const { manifest } = await writeBackup(dataPath, sourceAt(db));
    assert.equal(manifest.height, 2);
    assert.equal(existsSync(join(backupDir(dataPath), 'stray-file')), false);
    const backup = openBackup(dataPath);
    assert.deepEqual(contents(backup.dbs), contents(db.dbs));
    await backup.close();
  });

  it('a second backup started during a copy waits for it, and each copies its own height', async () => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    commitFilledHeights(db, 3, 300);
    const first = writeBackup(dataPath, sourceAt(db), { entriesPerTurn: 100 });
    commitFilledHeight(db, 3, 300);
    const atSecond = contents(db.dbs);
    const second = writeBackup(dataPath, sourceAt(db), { entriesPerTurn: 100 });
    commitFilledHeight(db, 4, 300);
    assert.equal((await first).manifest.height, 2);
    assert.equal((await second).manifest.height, 3);
    const backup = openBackup(dataPath);
    assert.deepEqual(contents(backup.dbs), atSecond);
    await backup.close();
  });

  it('refuses a height the store is not at, and leaves the existing backup alone', async () => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    commitFilledHeights(db, 3, 100);
    const { manifest } = await writeBackup(dataPath, sourceAt(db));
    await assert.rejects(
      () => writeBackup(dataPath, { ...sourceAt(db), height: 1 }),
      /Cannot back up height 1 .*the store's committed state is height 2/,
    );
    await assert.rejects(
      () => writeBackup(dataPath, { ...sourceAt(db), stateRoot: Buffer.alloc(32) }),
      /Cannot back up height 2 \(state root 0{64}\)/,
    );
    assert.deepEqual(readBackupManifest(dataPath), manifest);
    const backup = openBackup(dataPath);
    await backup.close();
  });
});

describe('openBackup and readBackupManifest', () => {
  it('no backup directory: no manifest, and a clear error', () => {
    const dataPath = tempDataPath();
    assert.equal(readBackupManifest(dataPath), undefined);
    assert.throws(() => openBackup(dataPath), /No backup under .*backup does not exist/);
  });

  it('a copy without a manifest is incomplete', () => {
    const dataPath = tempDataPath();
    mkdirSync(join(backupDir(dataPath), 'data'), { recursive: true });
    assert.equal(readBackupManifest(dataPath), undefined);
    assert.throws(() => openBackup(dataPath), /is incomplete: it has no manifest\.json/);
  });

  it('a malformed manifest is an error naming the file', () => {
    const dataPath = tempDataPath();
    mkdirSync(backupDir(dataPath), { recursive: true });
    const file = join(backupDir(dataPath), 'manifest.json');
    writeFileSync(file, '{"height":');
    assert.throws(() => readBackupManifest(dataPath), /manifest\.json is not valid JSON/);
    const valid = {
      height: 3,
      blockID: 'ab'.repeat(32),
      stateRoot: 'cd'.repeat(32),
      chainID: '04000000',
      createdAt: new Date().toISOString(),
    };
    for (const bad of [
      { height: -1 },
      { height: 1.5 },
      { blockID: 'AB'.repeat(32) },
      { stateRoot: 'cd'.repeat(31) },
      { chainID: '040000' },
      { createdAt: 5 },
    ]) {
      writeFileSync(file, JSON.stringify({ ...valid, ...bad }));
      assert.throws(() => readBackupManifest(dataPath), /is malformed/, JSON.stringify(bad));
    }
    writeFileSync(file, JSON.stringify(valid));
    assert.deepEqual(readBackupManifest(dataPath), valid);
    assert.throws(() => openBackup(dataPath), /has a manifest but no data\/kestrel\.lmdb/);
  });

  it('a manifest that does not name the copied state is refused', async () => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    commitFilledHeights(db, 2, 50);
    const { manifest } = await writeBackup(dataPath, sourceAt(db));
    writeFileSync(join(backupDir(dataPath), 'manifest.json'), JSON.stringify({ ...manifest, height: 7 }));
    assert.throws(
      () => openBackup(dataPath),
      /does not match its manifest: it holds the state of height 1, the manifest names height 7/,
    );
  });
});

describe('a backup cut short', () => {
  it('the node closing its environment mid-copy ends the copy without a manifest', async () => {
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    commitFilledHeights(db, 3, 500);
    let slices = 0;
    const copy = writeBackup(dataPath, sourceAt(db), {
      entriesPerTurn: 50,
      onTurn: () => void (++slices === 3 && db.dbs.root.close()),
    });
    await assert.rejects(
      copy,
      (e: Error) =>
        e instanceof BackupAbortedError && /database closed before the backup of height 2 completed/.test(e.message),
    );
    assert.equal(readBackupManifest(dataPath), undefined);
    assert.throws(() => openBackup(dataPath), /is incomplete/);
  });

  it('kill -9 during the copy leaves no manifest: the backup reads as incomplete', { timeout: 60_000 }, async () => {
    const dataPath = tempDataPath();
    const script = fileURLToPath(new URL('../helpers/backup_writer.js', import.meta.url));
    const slices = await runAndKill(script, [dataPath], 0, 3);
    assert.ok(slices >= 3, `killed after slice ${slices}`);
    assert.ok(existsSync(join(backupDir(dataPath), 'data', 'kestrel.lmdb')), 'the copy had begun');
    assert.equal(existsSync(join(backupDir(dataPath), 'manifest.json')), false);
    assert.equal(readBackupManifest(dataPath), undefined);
    assert.throws(() => openBackup(dataPath), /is incomplete/);
    rmSync(dataPath, { recursive: true, force: true });
  });
});

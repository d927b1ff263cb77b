import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { pino } from 'pino';
import { StateDB } from '../../src/engine/state/state_db.js';
import { type BlockHeader, blockHeaderID } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { KestrelNode } from '../../src/main/node.js';
import { openBackup, readBackupManifest } from '../../src/storage/backup.js';
import { openDatabases } from '../../src/storage/database.js';
import { readCommittedState } from '../../src/storage/state_roots.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { recomputeRoot, tempDataPath } from '../helpers/state.js';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger whose JSON lines the test reads. */
const capturedLogger = (): { logger: Logger; lines: LogLine[] } => {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
};

const waitFor = async (what: string, check: () => boolean, seconds: number): Promise<void> => {
  for (let waited = 0; waited < seconds * 5; waited++) {
    if (check()) return;
    await sleep(200);
  }
  assert.fail(`timed out waiting for ${what}`);
};

const devnetConfig = async (dataPath: string, backupHeight: number): Promise<ApplicationConfig> => {
  const config = loadConfig({ dataPath, apiPort: await freePort() });
  config.genesis.blockTime = 2;
  config.rpc.modes = ['ipc'];
  config.system.backup = { height: backupHeight };
  return config;
};

/** The state entries (hex key -> hex value) the node's store held at `height`: the current ones with the undo diffs of the heights above applied. */
const stateAt = (db: StateDB, height: number): Map<string, string> => {
  const entries = new Map(
    db
      .iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) })
      .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]),
  );
  for (let h = db.height!; h > height; h--) {
    const diff = db.diffAt(h);
    assert.ok(diff !== undefined, `the undo diff of height ${h} is kept (above the finalized height)`);
    for (const { key, existed, previous } of diff.entries) {
      if (existed) entries.set(key.toString('hex'), previous.toString('hex'));
      else entries.delete(key.toString('hex'));
    }
  }
  return entries;
};

describe('system.backup.height on a running devnet node', () => {
  it("copies the state when height 3 commits, keeps generating, and the copy is height 3 exactly; a restart at the chain's height takes a missing backup, a passed height is reported", {
    timeout: 180_000,
  }, async (t) => {
    const dataPath = tempDataPath();
    const { logger, lines } = capturedLogger();
    const node = new KestrelNode(await localP2P(await devnetConfig(dataPath, 3)), logger);
    await node.start();
    let tip: number;
    let header3: BlockHeader;
    try {
      await waitFor('the backup of height 3', () => readBackupManifest(dataPath)?.height === 3, 60);
      await waitFor('height 5', () => node.chain!.lastBlock().header.height >= 5, 30);
      const completed = lines.find((l) => l.msg === 'Backup completed');
      assert.ok(completed !== undefined, 'the completion is logged');
      assert.equal(completed.height, 3);
      t.diagnostic(
        `backup of height 3: ${String(completed.entries)} entries in ${String(completed.ms)} ms, longest slice ${String(completed.longestTurnMs)} ms`,
      );
      assert.ok(lines.some((l) => /Backup height committed/.test(l.msg)));
      header3 = node.chain!.headerAt(3)!;
    } finally {
      await node.stop();
    }
    tip = node.chain!.lastBlock().header.height;

    const backup = openBackup(dataPath);
    try {
      assert.deepEqual(backup.manifest, {
        height: 3,
        blockID: blockHeaderID(header3).toString('hex'),
        stateRoot: header3.stateRoot.toString('hex'),
        chainID: '04000000',
        createdAt: backup.manifest.createdAt,
      });
      assert.deepEqual(readCommittedState(backup.dbs), { height: 3, root: header3.stateRoot, rootVersion: 3 });
      const backupState = new StateDB(backup.dbs);
      assert.deepEqual(
        recomputeRoot(backupState),
        header3.stateRoot,
        "the copied state entries hash to block 3's stateRoot",
      );
      const nodeDbs = openDatabases(dataPath, { readOnly: true });
      const nodeState = new StateDB(nodeDbs);
      assert.ok(nodeState.height! > 3 && !nodeState.root.equals(header3.stateRoot), 'the node went on past height 3');
      const copied = new Map(
        backupState
          .iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) })
          .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]),
      );
      assert.deepEqual(copied, stateAt(nodeState, 3), "the copied entries are the node's state at height 3");
      await nodeDbs.root.close();
    } finally {
      await backup.close();
    }

    // restarted at its tip with the backup height set to it (no generation: the chain stays there)
    const again = capturedLogger();
    const atTip = await devnetConfig(dataPath, tip);
    delete atTip.generator;
    const restarted = new KestrelNode(await localP2P(atTip), again.logger);
    await restarted.start();
    try {
      await waitFor(`the backup of height ${tip}`, () => readBackupManifest(dataPath)?.height === tip, 30);
    } finally {
      await restarted.stop();
    }
    const replaced = openBackup(dataPath);
    assert.equal(readCommittedState(replaced.dbs)?.height, tip, 'the backup of height 3 was replaced');
    await replaced.close();

    const passed = capturedLogger();
    const below = await devnetConfig(dataPath, 2);
    delete below.generator;
    const late = new KestrelNode(await localP2P(below), passed.logger);
    await late.start();
    await late.stop();
    const warning = passed.lines.find(
      (l) => l.level === 40 && /system\.backup\.height 2 is below the chain's height/.test(l.msg),
    );
    assert.ok(warning !== undefined, 'a backup height the chain passed is reported');
    assert.equal(readBackupManifest(dataPath)?.height, tip, 'and the backup there is left alone');
  });
});

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { backupHeightNote, backupProblem, successorChainProblem } from '../../src/main/migrate/preflight.js';
import type { BackupManifest } from '../../src/storage/backup.js';
import { tempDataPath } from '../helpers/state.js';

const manifest = (height: number): BackupManifest => ({
  height,
  blockID: '11'.repeat(32),
  stateRoot: '22'.repeat(32),
  chainID: '04000000',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe("kestrel migrate's checks before any work", () => {
  describe("the successor's chain ID", () => {
    it('a mainchain ID (xx000000) passes, whatever its network byte', () => {
      assert.equal(successorChainProblem('04000000', '04000000', false), undefined);
      assert.equal(successorChainProblem('02000000', '04000000', true), undefined);
    });

    it('a sidechain ID is refused, from the flag or as the old chain kept', () => {
      assert.match(successorChainProblem('04000002', '04000000', true) ?? '', /^--chain-id 04000002 is a sidechain ID/);
      assert.match(
        successorChainProblem('04000002', '04000002', false) ?? '',
        /^The successor's chain ID 04000002 \(the old chain's; --chain-id not given\) is a sidechain ID.*such as 04000000\.$/,
      );
    });

    it('not 8 lower-case hex characters: refused', () => {
      for (const bad of ['0400000', '040000000', 'ABCDEF00', 'zz000000'])
        assert.match(successorChainProblem(bad, '04000000', true) ?? '', /must be 4 bytes in lower-case hex/, bad);
    });
  });

  describe('the backup under the old data path', () => {
    it('none: names where it was looked for and what the config says', () => {
      const dataPath = tempDataPath();
      assert.equal(
        backupProblem({ snapshotHeight: 30, dataPath, configHeight: 0, manifest: undefined }),
        `No backup under ${join(dataPath, 'backup')} (the config read for the old node sets system.backup.height to 0): the old node writes it when it commits system.backup.height; set that to 30 and let the old node reach it.`,
      );
      mkdirSync(join(dataPath, 'backup'));
      assert.match(
        backupProblem({ snapshotHeight: 30, dataPath, configHeight: 30, manifest: undefined }) ?? '',
        /is incomplete: it has no manifest\.json/,
      );
    });

    it('another height: says which height the backup holds and which the config names', () => {
      const dataPath = tempDataPath();
      assert.equal(
        backupProblem({ snapshotHeight: 30, dataPath, configHeight: 30, manifest: manifest(25) }),
        `--snapshot-height 30 but the backup under ${join(dataPath, 'backup')} holds height 25 (the config read for the old node sets system.backup.height to 30).`,
      );
    });

    it("the backup's height: accepted; a config naming another height gets a note, not a refusal", () => {
      const check = { snapshotHeight: 25, dataPath: tempDataPath(), configHeight: 0, manifest: manifest(25) };
      assert.equal(backupProblem(check), undefined);
      assert.match(
        backupHeightNote(check) ?? '',
        /sets system\.backup\.height to 0, not 25; the backup under .* holds height 25/,
      );
      assert.equal(backupHeightNote({ ...check, configHeight: 25 }), undefined);
    });
  });
});

import { existsSync } from 'node:fs';
import type { BackupManifest } from '../../storage/backup.js';
import { backupDir } from '../../storage/backup.js';
import { isMainchainID } from '../modules.js';

/**
 * Why the successor chain ID cannot take the migrated state, before any work. The migration
 * writes a mainchain's genesis state (the interoperability asset names klayr_mainchain, the
 * legacy asset holds the unclaimed legacy accounts); a chain ID not of the form xx000000 makes
 * a sidechain, whose module set has no legacy module and whose interoperability genesis needs an
 * empty own chain name: its genesis processing would refuse the block.
 */
export const successorChainProblem = (chainID: string, oldChainID: string, fromFlag: boolean): string | undefined => {
  if (!/^[0-9a-f]{8}$/.test(chainID))
    return `--chain-id ${chainID} must be 4 bytes in lower-case hex (8 characters), e.g. ${oldChainID}.`;
  if (isMainchainID(Buffer.from(chainID, 'hex'))) return undefined;
  const which = fromFlag
    ? `--chain-id ${chainID}`
    : `The successor's chain ID ${chainID} (the old chain's; --chain-id not given)`;
  return (
    `${which} is a sidechain ID (only IDs of the form xx000000 are mainchains): a sidechain runs the sidechain modules, ` +
    'without the legacy module and with an interoperability genesis that needs an empty own chain name, ' +
    "so it cannot process the migrated state, which is a mainchain's (own chain name klayr_mainchain, legacy accounts). " +
    `Give a mainchain ID such as ${chainID.slice(0, 2)}000000.`
  );
};

export interface BackupCheck {
  /** --snapshot-height */
  snapshotHeight: number;
  /** The old node's data path. */
  dataPath: string;
  /** system.backup.height of the config read for the old node (its -c file, else the config saved under its data path). */
  configHeight: number;
  /** The manifest of the backup under the data path, if one completed. */
  manifest: BackupManifest | undefined;
}

/** Why the backup under the old data path is not the snapshot to migrate; undefined when it holds --snapshot-height. */
export const backupProblem = ({
  snapshotHeight,
  dataPath,
  configHeight,
  manifest,
}: BackupCheck): string | undefined => {
  const dir = backupDir(dataPath);
  const config = `the config read for the old node sets system.backup.height to ${configHeight}`;
  if (manifest === undefined) {
    if (existsSync(dir))
      return `The backup under ${dir} is incomplete: it has no manifest.json (the copy did not finish); ${config}.`;
    return (
      `No backup under ${dir} (${config}): the old node writes it when it commits system.backup.height; ` +
      `set that to ${snapshotHeight} and let the old node reach it.`
    );
  }
  if (manifest.height !== snapshotHeight)
    return `--snapshot-height ${snapshotHeight} but the backup under ${dir} holds height ${manifest.height} (${config}).`;
  return undefined;
};

/** A note when the backup holds --snapshot-height but the config read says another backup height (the old node's -c file missing?). */
export const backupHeightNote = ({ snapshotHeight, dataPath, configHeight }: BackupCheck): string | undefined =>
  configHeight === snapshotHeight
    ? undefined
    : `Note: the config read for the old node sets system.backup.height to ${configHeight}, not ${snapshotHeight}; ` +
      `the backup under ${backupDir(dataPath)} holds height ${snapshotHeight} and is migrated. ` +
      'If the old node runs with a -c config file, pass it too (--auto-migrate-config carries the config read).';

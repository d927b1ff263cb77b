import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID } from '../lib/chain/block.js';
import type { BackupManifest } from '../storage/backup.js';
import { BackupAbortedError, backupDir, readBackupManifest, writeBackup } from '../storage/backup.js';
import type { KestrelDatabases } from '../storage/database.js';
import type { ApplicationConfig } from './config/types.js';

export interface BackupHeightParts {
  config: ApplicationConfig;
  chain: Chain;
  dbs: KestrelDatabases;
  logger: Logger;
}

/**
 * `system.backup.height` (Klayr's engine: a copy of the blockchain database under
 * `<dataPath>/backup` when that height is committed, replacing an older one). The copy runs in
 * slices between the node's other work; the node keeps generating meanwhile.
 */
export const watchBackupHeight = ({ config, chain, dbs, logger }: BackupHeightParts): void => {
  const { height } = config.system.backup;
  if (height <= 0) return;
  const { dataPath } = config.system;
  const path = backupDir(dataPath);
  const chainID = Buffer.from(config.genesis.chainID, 'hex');

  const take = (block: Block): void => {
    const began = performance.now();
    let longestTurnMs = 0;
    logger.info({ height, path }, 'Backup height committed: copying the state to the backup directory');
    writeBackup(
      dataPath,
      { dbs, height, blockID: blockHeaderID(block.header), stateRoot: block.header.stateRoot, chainID },
      { onTurn: (ms) => (longestTurnMs = Math.max(longestTurnMs, ms)) },
    )
      .then(({ manifest, entries }) =>
        logger.info(
          {
            height,
            blockID: manifest.blockID,
            stateRoot: manifest.stateRoot,
            entries,
            ms: Math.round(performance.now() - began),
            longestTurnMs: Math.round(longestTurnMs),
            path,
          },
          'Backup completed',
        ),
      )
      .catch((error: unknown) => {
        if (error instanceof BackupAbortedError)
          logger.warn({ height, path }, `Backup not completed: ${error.message}`);
        else logger.error({ err: error, height, path }, 'Backup failed');
      });
  };

  let existing: BackupManifest | undefined;
  try {
    existing = readBackupManifest(dataPath);
  } catch (error) {
    logger.warn({ err: error, path }, 'The backup directory holds an unreadable manifest');
  }
  const tip = chain.lastBlock().header.height;
  if (existing?.height === height) logger.info({ height, path }, 'The backup of system.backup.height exists');
  // a copy cut short (the process killed during it) is taken again while the state is still at that height
  else if (tip === height) take(chain.lastBlock());
  else if (tip > height)
    logger.warn(
      { height, chainHeight: tip, path },
      `system.backup.height ${height} is below the chain's height ${tip}: the node passed it without a backup and will take none`,
    );
  chain.onCommitted((block) => {
    if (block.header.height !== height) return;
    // written behind (block synchronization): the copy starts when LMDB holds that block, before the next
    chain.whenStored(() => {
      try {
        take(block);
      } catch (error) {
        logger.error({ err: error, height, path }, 'Backup failed to start');
      }
    });
  });
};

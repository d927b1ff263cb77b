import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { prefetchProofsOfPossession } from '../../engine/pools/pop_prefetch.js';
import { blockToJSON, encodeBlock } from '../../lib/chain/block.js';
import type { MigrationResult, MigrationSummary } from '../../migration/migrate.js';
import { migrateSnapshot } from '../../migration/migrate.js';
import type { Progress } from '../../migration/progress.js';
import { Snapshot } from '../../migration/snapshot.js';
import { readBackupManifest } from '../../storage/backup.js';
import { createPooledBlsVerifier } from '../../workers/bls_verifier.js';
import { defaultConfig } from '../config/defaults.js';
import { absolutePath } from '../config/home.js';
import { configDataPath, loadConfig } from '../config/load.js';
import { mergeConfig } from '../config/merge.js';
import type { ApplicationConfig } from '../config/types.js';
import { applicationModules } from '../modules.js';
import { checkOutputPath, defaultOutputPath, isWithin } from './output_path.js';
import type { BackupCheck } from './preflight.js';
import { backupHeightNote, backupProblem, successorChainProblem } from './preflight.js';
import { configProblems, successorConfig } from './successor_config.js';

export interface MigrateOptions {
  snapshotHeight: number;
  dataPath?: string;
  config?: string;
  output?: string;
  chainId?: string;
  successorDataPath?: string;
  autoMigrateConfig?: boolean;
  pageSize: number;
  initRounds?: number;
  initValidators?: number;
  genesisTimeGap?: number;
}

export interface MigrateOutcome {
  output: string;
  summary: MigrationSummary;
  seconds: number;
  files: string[];
  /** The successor's config file (--auto-migrate-config), or a minimal one for --auto-start. */
  configFile: string;
  successorDataPath: string;
  oldDataPath: string;
}

/**
 * `kestrel migrate`: reads the old node's snapshot (never its live database, so the node may run
 * on), writes the successor's genesis block, forgingStatus.json and (with --auto-migrate-config)
 * its config under the output directory.
 */
export const runMigration = async (
  options: MigrateOptions,
  progress: Progress,
  /** Where notes on the inputs go (the command: stderr). */
  notify: (line: string) => void = () => undefined,
): Promise<MigrateOutcome> => {
  const began = Date.now();
  const flags = {
    ...(options.dataPath !== undefined ? { dataPath: options.dataPath } : {}),
    ...(options.config !== undefined ? { config: options.config } : {}),
  };
  const oldDataPath = configDataPath(flags);
  const old = loadConfig(flags);
  const backup: BackupCheck = {
    snapshotHeight: options.snapshotHeight,
    dataPath: oldDataPath,
    configHeight: old.system.backup.height,
    manifest: readBackupManifest(oldDataPath),
  };
  // the backup's manifest says which height it holds: checked before any work, as is the successor's chain ID
  const problem = backupProblem(backup);
  if (problem !== undefined) throw new Error(problem);
  const oldChainID = backup.manifest?.chainID ?? old.genesis.chainID;
  const chainID = options.chainId ?? oldChainID;
  const chainProblem = successorChainProblem(chainID, oldChainID, options.chainId !== undefined);
  if (chainProblem !== undefined) throw new Error(chainProblem);
  const note = backupHeightNote(backup);
  if (note !== undefined) notify(note);
  const successorDefault = defaultConfig().system.dataPath;
  const successorDataPath = absolutePath(options.successorDataPath ?? successorDefault);
  if (isWithin(successorDataPath, oldDataPath) || isWithin(oldDataPath, successorDataPath)) {
    throw new Error(
      `The successor's data path ${successorDataPath} overlaps the old node's ${oldDataPath}: give the successor its own with --successor-data-path.`,
    );
  }
  // klayr-migrator's output place is named after the old chain
  const output = checkOutputPath(options.output ?? defaultOutputPath(old.genesis.chainID), successorDefault);

  const snapshot = Snapshot.open(oldDataPath);
  const bls = createPooledBlsVerifier(availableParallelism());
  let result: MigrationResult;
  let config: Partial<ApplicationConfig> | undefined;
  try {
    if (snapshot.height !== options.snapshotHeight)
      throw new Error(
        `The snapshot under ${oldDataPath} is of height ${snapshot.height}, not --snapshot-height ${options.snapshotHeight}.`,
      );
    if (snapshot.manifest.chainID !== old.genesis.chainID)
      throw new Error(
        `The snapshot is of chain ${snapshot.manifest.chainID}, the old node's config names chain ${old.genesis.chainID}.`,
      );
    const configFor = (useInvalidBLSKey: boolean): Partial<ApplicationConfig> =>
      successorConfig(old, {
        chainID,
        dataPath: successorDataPath,
        genesisFile: './genesis_block.blob',
        useInvalidBLSKey,
        carry: options.autoMigrateConfig === true,
      });
    const oldModules = applicationModules(old);
    result = await migrateSnapshot(snapshot, {
      chainID: Buffer.from(chainID, 'hex'),
      pageSize: options.pageSize,
      ...(options.initRounds !== undefined ? { initRounds: options.initRounds } : {}),
      ...(options.initValidators !== undefined ? { initValidators: options.initValidators } : {}),
      ...(options.genesisTimeGap !== undefined ? { genesisTimeGap: options.genesisTimeGap } : {}),
      modules: ({ useInvalidBLSKey }) => {
        config = configFor(useInvalidBLSKey);
        const complete = mergeConfig(defaultConfig(), config);
        const problems = configProblems(complete);
        if (problems.length > 0) throw new Error(`The successor's config is invalid:\n  ${problems.join('\n  ')}`);
        return applicationModules(complete);
      },
      transactionProofs: (tx) => oldModules.flatMap((m) => m.transactionProofsOfPossession?.(tx) ?? []),
      checkProofsOfPossession: (items) => prefetchProofsOfPossession(items, bls),
      progress,
    });
  } finally {
    await Promise.all([snapshot.close(), bls.close()]);
  }

  mkdirSync(output, { recursive: true });
  const blob = encodeBlock(result.block);
  const files: [string, string | Buffer][] = [
    ['genesis_block.blob', blob],
    ['genesis_block.blob.SHA256', createHash('sha256').update(blob).digest('hex')],
    ['genesis_block.json', `${JSON.stringify(blockToJSON(result.block), null, '\t')}\n`],
    ['forgingStatus.json', `${JSON.stringify(result.forgingStatus, null, '\t')}\n`],
    ['config.json', `${JSON.stringify(config, null, '\t')}\n`],
  ];
  for (const [name, content] of files) writeFileSync(join(output, name), content);
  return {
    output,
    summary: result.summary,
    seconds: (Date.now() - began) / 1000,
    files: files.map(([name]) => join(output, name)),
    configFile: join(output, 'config.json'),
    successorDataPath,
    oldDataPath,
  };
};

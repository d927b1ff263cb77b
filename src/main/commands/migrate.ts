import { Command, Option } from 'commander';
import {
  DEFAULT_GENESIS_TIME_GAP,
  DEFAULT_INIT_ROUNDS,
  DEFAULT_INIT_VALIDATORS,
  DEFAULT_PAGE_SIZE,
} from '../../migration/defaults.js';
import type { MigrateOptions } from '../migrate/run.js';
import { positiveInteger, uint32 } from './flags.js';

/** `kestrel migrate`'s flags: the migration's options, and whether to start the successor. */
interface MigrateFlags extends MigrateOptions {
  autoStart?: boolean;
  autoStartKlayrCoreV4?: boolean;
}

/**
 * `kestrel migrate`: the successor network's genesis block from the old node's snapshot at
 * system.backup.height (klayr-migrator's procedure), with forgingStatus.json and the successor's config.
 */
export const migrateCommand = (): Command =>
  new Command('migrate')
    .description(
      "Create the successor network's genesis block from the old node's snapshot at system.backup.height: every auth account (nonces reset), every balance (stakes and locked amounts returned), every validator (the top 51 as initial validators, a bootstrap period of 587 rounds). Writes genesis_block.blob, forgingStatus.json and config.json. Reads only the snapshot: the old node may keep running.",
    )
    .requiredOption(
      '-s, --snapshot-height <height>',
      "The announced snapshot height; must equal the old node's system.backup.height, and its snapshot must exist.",
      uint32('snapshot height'),
    )
    .option('-d, --data-path <path>', "The old node's data path (default: Kestrel's, ~/.klayr/kestrel).")
    .option('-c, --config <file>', "The old node's custom config file.")
    .option(
      '-o, --output <dir>',
      "Where to write the files (default: ~/.klayr/kestrel-migrator/<the old chain's ID>); never the successor's default data directory or inside it.",
    )
    .option(
      '--chain-id <hex>',
      "The successor's chain ID (default: the old chain's); a mainchain ID (xx000000), as the migrated state is a mainchain's.",
    )
    .option(
      '--successor-data-path <path>',
      "The successor node's data path (default: Kestrel's, ~/.klayr/kestrel); never the old node's.",
    )
    .option(
      '--auto-migrate-config',
      "Carry the old node's rpc, network, generator, transaction pool, system and module settings into the successor's config.json (else it holds only the chain ID, genesis block and data path).",
    )
    .option(
      '--auto-start',
      'Start the successor node (kestrel start -c <output>/config.json --overwrite-config) as a child process this command supervises, once the old node has stopped; wait until it answers RPC.',
    )
    .addOption(new Option('--auto-start-klayr-core-v4', "Alias of --auto-start (klayr-migrator's name)."))
    .option(
      '-p, --page-size <blocks>',
      'Blocks read at a time while collecting the proofs of possession.',
      positiveInteger,
      DEFAULT_PAGE_SIZE,
    )
    .option(
      '--init-rounds <rounds>',
      'Rounds of the bootstrap period (pos genesisData.initRounds).',
      positiveInteger,
      DEFAULT_INIT_ROUNDS,
    )
    .option(
      '--init-validators <count>',
      'How many validators form the initial set.',
      positiveInteger,
      DEFAULT_INIT_VALIDATORS,
    )
    .option(
      '--genesis-time-gap <seconds>',
      "Seconds between the snapshot block's timestamp and the genesis block's (klayr-migrator's 3600).",
      uint32('genesis time gap'),
      DEFAULT_GENESIS_TIME_GAP,
    )
    .action(async (flags: MigrateFlags) => {
      const [{ runMigration }, { progressBar }] = await Promise.all([
        import('../migrate/run.js'),
        import('../migrate/progress_bar.js'),
      ]);
      const autoStart = flags.autoStart === true || flags.autoStartKlayrCoreV4 === true;
      const outcome = await runMigration(flags, progressBar(), (note) => process.stderr.write(`${note}\n`));
      const { summary: s } = outcome;
      const lines = [
        `Migrated the snapshot of height ${s.snapshotHeight} into chain ${s.chainID} in ${outcome.seconds.toFixed(1)} s`,
        `  auth accounts        ${s.authAccounts} (${s.multisignatureAccounts} multisignature, nonces reset to 0)`,
        `  token accounts       ${s.tokenAccounts} (locked ${s.lockedReturned} returned to available balances, the stakes of ${s.stakersReturned} stakers included; unclaimed rewards ${s.unclaimedRewardsPaid} paid to their stakers)`,
        `  total supply         ${
          Object.entries(s.totalSupply)
            .map(([id, amount]) => `${amount} of ${id}`)
            .join(', ') || 'none'
        }`,
        `  validators           ${s.validators} (${s.bannedValidators} banned, ${s.validatorsWithoutBLSKey} without a BLS key)`,
        `  initial validators   ${s.initValidators}, bootstrap ${s.initRounds} rounds, finality needs ${s.precommitThreshold} of ${s.initValidators}`,
        ...(s.legacyAccounts > 0 ? [`  legacy accounts      ${s.legacyAccounts}`] : []),
        ...(s.useInvalidBLSKey
          ? [
              '  useInvalidBLSKey     true: every validator is banned until it registers its keys with legacy registerKeys',
            ]
          : []),
        `  genesis block        ${s.genesisBlockID} at height ${s.height}, timestamp ${s.timestamp}`,
        `  state root           ${s.stateRoot}`,
        ...outcome.files.map((f) => `  wrote ${f}`),
        `Start the successor: kestrel start -d ${outcome.successorDataPath} -c ${outcome.configFile} --overwrite-config`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      if (!autoStart) return;
      const { checkOldNodeStopped, startSuccessor } = await import('../migrate/auto_start.js');
      checkOldNodeStopped(outcome.oldDataPath);
      const node = await startSuccessor(outcome.successorDataPath, outcome.configFile);
      process.stdout.write(
        `Successor node started (process ${node.pid}): chain ${node.chainID}, height ${node.height}. Supervising it; Ctrl-C stops it.\n`,
      );
      process.exit(await node.exited);
    });

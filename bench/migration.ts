/**
 * `node dist/bench/migration.js [accounts]`: `kestrel migrate`'s work on a synthetic snapshot of
 * 100,000 accounts (each a KLY balance, every tenth an auth entry), 103 validators with the
 * devnet's real keys, stakers with unclaimed rewards and 1,000 legacy accounts: open the backup,
 * read the proofs of possession from the blocks, build every asset, compute the genesis block
 * (the validators' proofs of possession on the bls pool's threads, every module's genesis, the
 * state root) and encode it.
 * The figure to beat: the migration announcement's "about 3 minutes (testnet), about 5 minutes
 * (mainnet)" for lisk-migrator; the goal is under 30 s on two cores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { prefetchProofsOfPossession } from '../src/engine/pools/pop_prefetch.js';
import { encodeBlock } from '../src/lib/chain/block.js';
import { loadConfig } from '../src/main/config/index.js';
import { applicationModules } from '../src/main/modules.js';
import { migrateSnapshot } from '../src/migration/migrate.js';
import { Snapshot } from '../src/migration/snapshot.js';
import { createPooledBlsVerifier } from '../src/workers/bls_verifier.js';
import { printAndSave } from './harness.js';
import { writeSyntheticSnapshot } from './migration_snapshot.js';

const ACCOUNTS = Number(process.argv[2] ?? 100_000);
const VALIDATORS = 103;
const LEGACY_ACCOUNTS = 1_000;
/** lisk-migrator's reported run time on the testnet, the smaller figure (spec: about 3 minutes). */
const LISK_MIGRATOR_TESTNET_SECONDS = 180;
const GOAL_SECONDS = 30;

const dir = mkdtempSync(join(tmpdir(), 'kestrel-migration-bench-'));
try {
  const writing = performance.now();
  writeSyntheticSnapshot(dir, {
    height: 100_000,
    accounts: ACCOUNTS,
    validators: VALIDATORS,
    active: 53,
    legacyAccounts: LEGACY_ACCOUNTS,
  });
  console.log(
    `synthetic snapshot of ${ACCOUNTS} accounts written in ${((performance.now() - writing) / 1000).toFixed(1)} s`,
  );
  const config = loadConfig({ dataPath: join(dir, 'successor') });
  const modules = applicationModules(config);

  const started = performance.now();
  const steps: Record<string, number> = {};
  // as `kestrel migrate` runs it: the proofs of possession checked by the bls pool on all cores
  const bls = createPooledBlsVerifier(availableParallelism());
  const snapshot = Snapshot.open(dir);
  const result = await migrateSnapshot(snapshot, {
    pageSize: 100_000,
    modules: () => modules,
    transactionProofs: (tx) => modules.flatMap((m) => m.transactionProofsOfPossession?.(tx) ?? []),
    checkProofsOfPossession: (items) => prefetchProofsOfPossession(items, bls),
    progress: {
      step: (label) => {
        const began = performance.now();
        return {
          tick: () => undefined,
          done: () => {
            steps[label] = Number(((performance.now() - began) / 1000).toFixed(3));
          },
        };
      },
    },
  });
  const blob = encodeBlock(result.block);
  await Promise.all([snapshot.close(), bls.close()]);
  const seconds = (performance.now() - started) / 1000;
  const accountsPerSecond = Math.round(ACCOUNTS / seconds);
  console.log(
    `migrated ${ACCOUNTS} accounts in ${seconds.toFixed(2)} s: ${accountsPerSecond} accounts/s (goal: under ${GOAL_SECONDS} s; lisk-migrator: about 3 min testnet, 5 min mainnet)`,
  );
  console.log(steps);
  printAndSave(
    'migration',
    [
      {
        name: `kestrel migrate of a synthetic ${ACCOUNTS}-account snapshot (${VALIDATORS} validators, ${LEGACY_ACCOUNTS} legacy accounts): open, proofs of possession, assets, genesis block with its roots, encode`,
        baseline: `lisk-migrator's reported run time on the testnet (about ${LISK_MIGRATOR_TESTNET_SECONDS} s; 300 s on the mainnet), a figure from the migration announcement, not a run here`,
        oursOpsPerSec: Number((1 / seconds).toFixed(4)),
        baselineOpsPerSec: Number((1 / LISK_MIGRATOR_TESTNET_SECONDS).toFixed(4)),
        ratio: Number((LISK_MIGRATOR_TESTNET_SECONDS / seconds).toFixed(2)),
        goal: Number((LISK_MIGRATOR_TESTNET_SECONDS / GOAL_SECONDS).toFixed(2)),
        meetsGoal: seconds < GOAL_SECONDS,
      },
    ],
    {
      accounts: ACCOUNTS,
      validators: VALIDATORS,
      seconds: Number(seconds.toFixed(3)),
      accountsPerSecond,
      blobBytes: blob.length,
      steps,
      genesisBlockID: result.summary.genesisBlockID,
    },
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

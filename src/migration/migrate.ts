import { computeGenesis, unsignedGenesisHeader } from '../engine/genesis.js';
import { EMPTY_STATE } from '../engine/state/state_db.js';
import type { GenesisModule } from '../engine/state_machine/module.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID } from '../lib/chain/block.js';
import { MODULE_NAME as AUTH } from '../modules/auth/stores.js';
import { genesisProofsOfPossession } from '../modules/pos/genesis.js';
import { MODULE_NAME as POS, POS_STORES } from '../modules/pos/stores.js';
import { MODULE_NAME as TOKEN, TOKEN_STORES } from '../modules/token/stores.js';
import { migrateAuth } from './assets/auth.js';
import { migrateInteroperability } from './assets/interoperability.js';
import { migrateLegacy } from './assets/legacy.js';
import { migratePoS } from './assets/pos.js';
import { migrateToken } from './assets/token.js';
import type { MigratedAsset } from './context.js';
import { migrationContext } from './context.js';
import {
  DEFAULT_GENESIS_TIME_GAP,
  DEFAULT_INIT_ROUNDS,
  DEFAULT_INIT_VALIDATORS,
  DEFAULT_PAGE_SIZE,
} from './defaults.js';
import type { ForgingStatus } from './forging_status.js';
import { forgingStatusAt } from './forging_status.js';
import type { Progress } from './progress.js';
import { SILENT_PROGRESS } from './progress.js';
import type { TransactionProofs } from './proofs_of_possession.js';
import { ProofsOfPossession } from './proofs_of_possession.js';
import type { Snapshot } from './snapshot.js';

export interface MigrationOptions {
  /** The successor's chain ID; default the old chain's. */
  chainID?: Buffer;
  initRounds?: number;
  initValidators?: number;
  /** Blocks read at a time while collecting the proofs of possession. */
  pageSize?: number;
  /** Seconds between the snapshot block's timestamp and the genesis block's. */
  genesisTimeGap?: number;
  /** The successor's modules, built with or without modules.pos.useInvalidBLSKey (see migratePoS). */
  modules(settings: { useInvalidBLSKey: boolean }): readonly GenesisModule[];
  /** Where the key-registering transactions carry their proofs of possession (the modules' hooks). */
  transactionProofs: TransactionProofs;
  /**
   * Checks the validators' proofs of possession ahead of the genesis processing and remembers the
   * verdicts (a node's `bls` pool, on all cores: engine/pools/pop_prefetch.ts); without it the
   * genesis processing checks them one by one in JavaScript.
   */
  checkProofsOfPossession?(items: { pk: Buffer; proof: Buffer }[]): Promise<void>;
  progress?: Progress;
}

export interface MigrationSummary {
  snapshotHeight: number;
  chainID: string;
  authAccounts: number;
  multisignatureAccounts: number;
  tokenAccounts: number;
  validators: number;
  bannedValidators: number;
  validatorsWithoutBLSKey: number;
  initValidators: number;
  initRounds: number;
  /** Finality during the bootstrap period: floor(2n/3)+1 of the n initial validators. */
  precommitThreshold: number;
  stakersReturned: number;
  lockedReturned: string;
  unclaimedRewardsPaid: string;
  /** Per token ID: the supply store's total supply (equal to the balances' sum, before and after). */
  totalSupply: Record<string, string>;
  legacyAccounts: number;
  useInvalidBLSKey: boolean;
  genesisBlockID: string;
  stateRoot: string;
  height: number;
  timestamp: number;
}

export interface MigrationResult {
  block: Block;
  summary: MigrationSummary;
  forgingStatus: ForgingStatus[];
}

/**
 * The successor network's genesis block from a node's snapshot (Klayr's migration): auth, token,
 * pos, interoperability and (when the old chain has one) legacy assets, then the header over
 * them: height snapshot + 1, previous block the snapshot block, timestamp the snapshot block's
 * plus the gap, its roots computed by the successor's own genesis processing. Deterministic: the
 * same snapshot and options give the same bytes.
 */
export const migrateSnapshot = async (snapshot: Snapshot, options: MigrationOptions): Promise<MigrationResult> => {
  const progress = options.progress ?? SILENT_PROGRESS;
  const chainID = options.chainID ?? snapshot.chainID;
  const ctx = migrationContext(snapshot, chainID);
  const initRounds = options.initRounds ?? DEFAULT_INIT_ROUNDS;
  const snapshotBlock = snapshot.block(snapshot.height);
  if (snapshotBlock === undefined) throw new Error(`The snapshot lacks its own block at height ${snapshot.height}.`);

  const lowest = snapshot.lowestBlockHeight() ?? snapshot.height;
  let step = progress.step('Reading proofs of possession from the blocks', snapshot.blockCount(lowest));
  const proofs = ProofsOfPossession.scan(
    snapshot,
    options.transactionProofs,
    options.pageSize ?? DEFAULT_PAGE_SIZE,
    () => step.tick(),
  );
  step.done();

  step = progress.step('Migrating validators', snapshot.count(POS, POS_STORES.validator));
  const pos = migratePoS(ctx, proofs, {
    initRounds,
    initValidators: options.initValidators ?? DEFAULT_INIT_VALIDATORS,
  });
  step.tick(pos.validators);
  step.done();

  step = progress.step('Migrating auth accounts', snapshot.count(AUTH, 0));
  const auth = migrateAuth(ctx, () => step.tick());
  step.done();

  const legacy = migrateLegacy(ctx);
  step = progress.step('Migrating token balances', snapshot.count(TOKEN, TOKEN_STORES.user));
  const token = migrateToken(ctx, pos.rewardMoves, legacy === undefined ? [] : [legacy.keptLock], () => step.tick());
  step.done();

  const interop = migrateInteroperability(ctx);
  const assets: MigratedAsset[] = [auth, token, pos, interop, ...(legacy === undefined ? [] : [legacy])]
    .map(({ module, data }) => ({ module, data }))
    .sort((a, b) => a.module.localeCompare(b.module, 'en'));

  if (options.checkProofsOfPossession !== undefined) {
    step = progress.step("Checking the validators' proofs of possession", pos.validators);
    await options.checkProofsOfPossession(genesisProofsOfPossession(assets));
    step.tick(pos.validators);
    step.done();
  }

  step = progress.step('Computing the genesis block (state root, events, validators)', 1);
  const header = unsignedGenesisHeader({
    height: snapshot.height + 1,
    timestamp: snapshotBlock.header.timestamp + (options.genesisTimeGap ?? DEFAULT_GENESIS_TIME_GAP),
    previousBlockID: Buffer.from(snapshot.manifest.blockID, 'hex'),
    assets,
  });
  const draft: Block = { header, transactions: [], assets };
  const { stateRoot, eventRoot, validatorsHash, nextValidators } = computeGenesis(
    draft,
    chainID,
    options.modules({ useInvalidBLSKey: pos.useInvalidBLSKey }),
    EMPTY_STATE,
  );
  const block: Block = { ...draft, header: { ...header, stateRoot, eventRoot, validatorsHash } };
  step.tick();
  step.done();

  const summary: MigrationSummary = {
    snapshotHeight: snapshot.height,
    chainID: chainID.toString('hex'),
    authAccounts: auth.accounts,
    multisignatureAccounts: auth.multisignature,
    tokenAccounts: token.accounts,
    validators: pos.validators,
    bannedValidators: pos.banned,
    validatorsWithoutBLSKey: pos.withoutBLSKey,
    initValidators: pos.initValidators.length,
    initRounds,
    precommitThreshold: Number(nextValidators.precommitThreshold),
    stakersReturned: pos.stakers,
    lockedReturned: token.returnedLocked.toString(),
    unclaimedRewardsPaid: pos.rewardMoves.reduce((s, m) => s + m.amount, 0n).toString(),
    totalSupply: Object.fromEntries([...token.supply].map(([id, amount]) => [id, amount.toString()])),
    legacyAccounts: legacy?.accounts ?? 0,
    useInvalidBLSKey: pos.useInvalidBLSKey,
    genesisBlockID: blockHeaderID(block.header).toString('hex'),
    stateRoot: stateRoot.toString('hex'),
    height: header.height,
    timestamp: header.timestamp,
  };
  return { block, summary, forgingStatus: forgingStatusAt(snapshot) };
};

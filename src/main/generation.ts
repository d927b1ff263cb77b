import type { Logger } from 'pino';
import type { Chain } from '../engine/chain/chain.js';
import type { AggregateCommitVerifier } from '../engine/consensus/aggregate_commit.js';
import { CommitPool } from '../engine/consensus/commit_pool.js';
import type { BlockExecutor } from '../engine/execution/block_executor.js';
import type { ExecutedBlock } from '../engine/execution/executed_block.js';
import { Generator } from '../engine/generator/generator.js';
import { GeneratorKeyStore } from '../engine/generator/key_store.js';
import { encryptedGeneratorKeys, plainGeneratorKeys, readKeysFile } from '../engine/generator/keys.js';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import type { TransactionPool } from '../engine/txpool/index.js';
import { highFeeFirst } from '../engine/txpool/selection.js';
import { transactionID } from '../lib/transaction/index.js';
import type { BinaryDB } from '../storage/database.js';
import type { ApplicationConfig } from './config/types.js';

export interface GenerationParts {
  config: ApplicationConfig;
  chain: Chain;
  executor: BlockExecutor;
  aggregateCommits: AggregateCommitVerifier;
  /** The generator database. */
  db: BinaryDB;
  pool: TransactionPool;
  bls: BlsVerifier;
  signatures: SignatureVerifier;
  logger: Logger;
  /** A generated block was committed: the node's committed-block listener, which also takes its transactions out of the pool. */
  onBlock: (executed: ExecutedBlock) => void;
  /**
   * The node's commit pool (gossiping through the network, fed by peers' commits). Left out, the
   * generator gets one of its own that only aggregates and prunes the local validators' commits.
   */
  commitPool?: CommitPool;
  /** While true (block synchronization runs), generation pauses. */
  syncing?: () => boolean;
}

const ownCommitPool = (config: ApplicationConfig, chain: Chain, bls: BlsVerifier, logger: Logger): CommitPool => {
  const pool = new CommitPool({
    chain,
    chainID: Buffer.from(config.genesis.chainID, 'hex'),
    minCertifyHeight: config.genesis.minimumCertifyHeight ?? 1,
    bls,
    logger,
  });
  pool.start(config.genesis.blockTime);
  return pool;
};

/** What generation the node starts with: the keys it loaded, and plainly when it will generate nothing. */
const logGenerationAtStart = (logger: Logger, keyFile: string | undefined, plain: number, encrypted: number): void => {
  if (keyFile !== undefined)
    logger.info(
      { file: keyFile, plain, encrypted },
      `Generator keys loaded from ${keyFile}: ${plain} plain, ${encrypted} encrypted`,
    );
  if (plain > 0) {
    logger.info({ validators: plain }, `Block generation enabled for ${plain} validators with plain keys`);
    return;
  }
  logger.info(
    { validators: 0 },
    `No blocks will be generated: no validator has plain keys in generator.keys.fromFile${keyFile === undefined ? ' (not set)' : ''}; ` +
      'import keys with kestrel keys:import and enable each validator with kestrel generator:enable',
  );
};

/**
 * Block generation, as Klayr Core: the keys file's keys are stored in the generator database;
 * plain ones generate right away, with the pool's transactions, highest fee first.
 */
export const createGenerator = ({
  config,
  chain,
  executor,
  aggregateCommits,
  db,
  pool,
  bls,
  signatures,
  logger,
  onBlock,
  commitPool = ownCommitPool(config, chain, bls, logger),
  syncing,
}: GenerationParts): Generator => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const keyFile = config.generator?.keys.fromFile;
  const entries = keyFile === undefined ? [] : readKeysFile(keyFile);
  const keys = plainGeneratorKeys(entries, keyFile ?? 'keys file');
  const keyStore = new GeneratorKeyStore(db);
  for (const k of keys)
    keyStore.set(k.address, {
      type: 'plain',
      keys: {
        generatorKey: k.generatorKey,
        generatorPrivateKey: k.generatorPrivateKey,
        blsKey: k.blsKey,
        blsPrivateKey: k.blsPrivateKey,
      },
    });
  const encrypted = encryptedGeneratorKeys(entries);
  for (const k of encrypted) keyStore.set(k.address, { type: 'encrypted', message: k.encrypted as never });
  const generator = new Generator({
    chain,
    executor,
    aggregateCommits,
    chainID,
    db,
    keys,
    maxTransactionsSize: config.genesis.maxTransactionsSize,
    logger,
    candidates: () => highFeeFirst(pool.getProcessableTransactions()),
    commitPool,
    bls,
    signatures,
    ...(syncing !== undefined ? { syncing } : {}),
    proofsOfPossession: (tx) => executor.machine.modules.flatMap((m) => m.transactionProofsOfPossession?.(tx) ?? []),
    onRejected: (tx, reason) => {
      logger.debug(
        { id: transactionID(tx).toString('hex'), reason: reason.message },
        'Transaction left out of the block and dropped from the pool',
      );
      pool.remove(tx);
    },
    onBlock,
  });
  logGenerationAtStart(logger, keyFile, keys.length, encrypted.length);
  return generator;
};

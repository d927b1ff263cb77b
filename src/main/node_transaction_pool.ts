import type { Logger } from 'pino';
import { poolOptionsFromConfig, TransactionPool } from '../engine/txpool/index.js';
import { poolStatusOf } from '../engine/txpool/ingest.js';
import type { TransactionVerifier } from '../engine/txpool/transaction_verifier.js';
import { RepeatedLog } from '../lib/log/repeated_log.js';
import type { ApplicationConfig } from './config/types.js';

/** The node's transaction pool, its candidates verified against the tip, its periodic jobs' failures logged once. */
export const createTransactionPool = (
  config: ApplicationConfig,
  verifier: TransactionVerifier,
  logger: Logger,
): TransactionPool => {
  const jobErrors = new RepeatedLog(logger, { level: 'warn' });
  return new TransactionPool({
    ...poolOptionsFromConfig(config.transactionPool, config.genesis.maxTransactionsSize),
    verifyTransaction: (candidate) => {
      const { status, error } = verifier.verify(candidate);
      return { status: poolStatusOf(status), ...(error !== undefined ? { message: error.message } : {}) };
    },
    onJobError: (error) => jobErrors.report(error, 'Transaction pool job failed'),
  });
};

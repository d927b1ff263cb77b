export { computeFeePriority } from './candidate.js';
export type { ResolvedPoolOptions, TransactionPoolConfigSection, TransactionPoolOptions } from './config.js';
export { poolOptionsFromConfig, resolvePoolOptions } from './config.js';
export * from './constants.js';
export type { RejectionCode } from './errors.js';
export { REJECTION, REJECTION_MESSAGE, TransactionPoolError } from './errors.js';
export type { Scheduler } from './periodic_job.js';
export { PeriodicJob, timerScheduler } from './periodic_job.js';
export { TransactionPool } from './pool.js';
export type {
  AddResult,
  PoolCandidate,
  PoolEventMap,
  PooledTransaction,
  TransactionAddedEvent,
  TransactionRemovedEvent,
  Verdict,
  VerifyTransaction,
} from './types.js';
export { TransactionStatus } from './types.js';

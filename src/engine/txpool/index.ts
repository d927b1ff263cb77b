export { TransactionPool } from './pool.js';
export { computeFeePriority } from './candidate.js';
export { poolOptionsFromConfig, resolvePoolOptions } from './config.js';
export type { ResolvedPoolOptions, TransactionPoolConfigSection, TransactionPoolOptions } from './config.js';
export * from './constants.js';
export { REJECTION, REJECTION_MESSAGE, TransactionPoolError } from './errors.js';
export type { RejectionCode } from './errors.js';
export { PeriodicJob, timerScheduler } from './periodic_job.js';
export type { Scheduler } from './periodic_job.js';
export { TransactionStatus } from './types.js';
export type {
  AddResult,
  PoolCandidate,
  PooledTransaction,
  PoolEventMap,
  TransactionAddedEvent,
  TransactionRemovedEvent,
  Verdict,
  VerifyTransaction,
} from './types.js';

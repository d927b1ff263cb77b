import {
  DEFAULT_EXPIRE_INTERVAL_MS,
  DEFAULT_EXPIRY_TIME_MS,
  DEFAULT_MAX_PAYLOAD_LENGTH,
  DEFAULT_MAX_TRANSACTIONS,
  DEFAULT_MAX_TRANSACTIONS_PER_ACCOUNT,
  DEFAULT_MIN_ENTRANCE_FEE_PRIORITY,
  DEFAULT_MIN_REPLACEMENT_FEE_DIFFERENCE,
  DEFAULT_REORGANIZE_INTERVAL_MS,
} from './constants.js';
import type { Scheduler } from './periodic_job.js';
import { timerScheduler } from './periodic_job.js';
import type { PoolCandidate, VerifyTransaction } from './types.js';

/** Klayr Core's `transactionPool` application config section (amounts as decimal strings). */
export interface TransactionPoolConfigSection {
  maxTransactions?: number;
  maxTransactionsPerAccount?: number;
  transactionExpiryTime?: number;
  minEntranceFeePriority?: string;
  minReplacementFeeDifference?: string;
}

export interface TransactionPoolOptions {
  verifyTransaction: VerifyTransaction;
  maxTransactions?: number;
  maxTransactionsPerAccount?: number;
  /** Milliseconds a transaction may stay in the pool. */
  transactionExpiryTime?: number;
  minEntranceFeePriority?: bigint;
  minReplacementFeeDifference?: bigint;
  /** Largest transaction encoding accepted, in bytes (klayr-framework: genesis.maxTransactionsSize). */
  maxPayloadLength?: number;
  /** Subtracted from the fee before dividing by the size; Klayr 6 subtracts nothing (the default). */
  minFee?: (candidate: PoolCandidate) => bigint;
  reorganizeInterval?: number;
  expireInterval?: number;
  /** Milliseconds, for receivedAt and expiry. */
  clock?: () => number;
  scheduler?: Scheduler;
  /** A periodic run (reorganize, expire) that failed. */
  onJobError?: (error: unknown) => void;
}

export type ResolvedPoolOptions = Required<TransactionPoolOptions>;

const positiveInteger = (name: string, value: number): number => {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`transactionPool.${name} must be a positive integer, got ${value}`);
  return value;
};

const nonNegative = (name: string, value: bigint): bigint => {
  if (value < 0n) throw new RangeError(`transactionPool.${name} must not be negative, got ${value}`);
  return value;
};

const reportJobError = (error: unknown): void => {
  process.emitWarning(error instanceof Error ? error : String(error), { type: 'TransactionPoolJobError' });
};

export const resolvePoolOptions = (options: TransactionPoolOptions): ResolvedPoolOptions => ({
  verifyTransaction: options.verifyTransaction,
  maxTransactions: positiveInteger('maxTransactions', options.maxTransactions ?? DEFAULT_MAX_TRANSACTIONS),
  maxTransactionsPerAccount: positiveInteger(
    'maxTransactionsPerAccount',
    options.maxTransactionsPerAccount ?? DEFAULT_MAX_TRANSACTIONS_PER_ACCOUNT,
  ),
  transactionExpiryTime: positiveInteger(
    'transactionExpiryTime',
    options.transactionExpiryTime ?? DEFAULT_EXPIRY_TIME_MS,
  ),
  minEntranceFeePriority: nonNegative(
    'minEntranceFeePriority',
    options.minEntranceFeePriority ?? DEFAULT_MIN_ENTRANCE_FEE_PRIORITY,
  ),
  minReplacementFeeDifference: nonNegative(
    'minReplacementFeeDifference',
    options.minReplacementFeeDifference ?? DEFAULT_MIN_REPLACEMENT_FEE_DIFFERENCE,
  ),
  maxPayloadLength: positiveInteger('maxPayloadLength', options.maxPayloadLength ?? DEFAULT_MAX_PAYLOAD_LENGTH),
  minFee: options.minFee ?? (() => 0n),
  reorganizeInterval: positiveInteger(
    'reorganizeInterval',
    options.reorganizeInterval ?? DEFAULT_REORGANIZE_INTERVAL_MS,
  ),
  expireInterval: positiveInteger('expireInterval', options.expireInterval ?? DEFAULT_EXPIRE_INTERVAL_MS),
  clock: options.clock ?? Date.now,
  scheduler: options.scheduler ?? timerScheduler,
  onJobError: options.onJobError ?? reportJobError,
});

const toBigInt = (value: string | undefined): bigint | undefined => (value === undefined ? undefined : BigInt(value));

/** The pool options a node's config gives: its `transactionPool` section and genesis.maxTransactionsSize. */
export const poolOptionsFromConfig = (
  section: TransactionPoolConfigSection = {},
  maxTransactionsSize?: number,
): Omit<TransactionPoolOptions, 'verifyTransaction'> => ({
  maxTransactions: section.maxTransactions,
  maxTransactionsPerAccount: section.maxTransactionsPerAccount,
  transactionExpiryTime: section.transactionExpiryTime,
  minEntranceFeePriority: toBigInt(section.minEntranceFeePriority),
  minReplacementFeeDifference: toBigInt(section.minReplacementFeeDifference),
  maxPayloadLength: maxTransactionsSize,
});

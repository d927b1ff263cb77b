/** Defaults of Klayr's `transactionPool` config section and of @klayr/transaction-pool's internal jobs. */
export const DEFAULT_MAX_TRANSACTIONS = 4096;
export const DEFAULT_MAX_TRANSACTIONS_PER_ACCOUNT = 64;
export const DEFAULT_MIN_ENTRANCE_FEE_PRIORITY = 0n;
export const DEFAULT_MIN_REPLACEMENT_FEE_DIFFERENCE = 10n;
export const DEFAULT_EXPIRY_TIME_MS = 3 * 60 * 60 * 1000;
/** klayr-framework passes genesis.maxTransactionsSize as the pool's maxPayloadLength. */
export const DEFAULT_MAX_PAYLOAD_LENGTH = 15360;
export const DEFAULT_EXPIRE_INTERVAL_MS = 60 * 60 * 1000;
export const DEFAULT_REORGANIZE_INTERVAL_MS = 500;

/** The `reason` strings Klayr attaches to its EVENT_TRANSACTION_REMOVED. */
export const REMOVAL_REASON = {
  replacedOrAccountLimit: 'Transaction List executed remove',
  poolFull: 'Pool exceeded the size limit',
  expired: 'Transaction exceeded the expiry time',
} as const;

export const invalidTransactionReason = (id: Buffer): string => `Invalid transaction ${id.toString('hex')}`;

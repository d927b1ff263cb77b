/** Why the pool turned a transaction away; the messages are @klayr/transaction-pool's. */
export const REJECTION = {
  tooLarge: 'TOO_LARGE',
  feePriorityBelowMinimum: 'FEE_PRIORITY_BELOW_MINIMUM',
  poolFull: 'POOL_FULL',
  invalid: 'INVALID',
  replacementFeeTooLow: 'REPLACEMENT_FEE_TOO_LOW',
  accountLimit: 'ACCOUNT_LIMIT',
} as const;

export type RejectionCode = (typeof REJECTION)[keyof typeof REJECTION];

export const REJECTION_MESSAGE = {
  feePriorityBelowMinimum: 'Rejecting transaction due to failed minimum entrance fee priority requirement.',
  poolFull: 'Rejecting transaction due to fee priority when the pool is full.',
  invalid: 'Invalid transaction',
  replacementFeeTooLow: 'Incoming transaction fee is not sufficient to replace existing transaction',
  accountLimit: 'Incoming transaction exceeds maximum transaction limit per account',
} as const;

export const tooLargeMessage = (maxPayloadLength: number): string =>
  `Transaction byte length is greater than ${maxPayloadLength}`;

export interface TransactionPoolErrorDetails {
  dataPath?: string;
  actual?: string;
  expected?: string;
}

/** @klayr/transaction-pool's TransactionPoolError (same fields and toString), plus a machine-readable code. */
export class TransactionPoolError extends Error {
  override readonly name = 'TransactionPoolError';
  readonly dataPath: string;
  readonly actual: string | undefined;
  readonly expected: string | undefined;

  constructor(
    readonly code: RejectionCode,
    message: string,
    readonly id: Buffer,
    details: TransactionPoolErrorDetails = {},
  ) {
    super(message);
    this.dataPath = details.dataPath ?? '';
    this.actual = details.actual;
    this.expected = details.expected;
  }

  override toString(): string {
    let text = `TransactionPool: ${this.id.toString('hex')} failed to process at ${this.dataPath}: ${this.message}`;
    if (this.actual) text += `, actual: ${this.actual}`;
    if (this.expected) text += `, expected: ${this.expected}`;
    return text;
  }
}

import type { PreparedTransaction } from '../../lib/transaction/prepared.js';
import type { TransactionPoolError } from './errors.js';

/**
 * A transaction's standing against the committed state, with the values of Klayr's
 * TransactionVerifyResult: PROCESSABLE = OK (nonce equals the account nonce), UNPROCESSABLE =
 * PENDING (a future nonce), INVALID = FAIL (lower nonce, bad signature, too little balance, ...).
 */
export const TransactionStatus = { INVALID: -1, UNPROCESSABLE: 0, PROCESSABLE: 1 } as const;
export type TransactionStatus = (typeof TransactionStatus)[keyof typeof TransactionStatus];

/** What a verifier says about a transaction; a message given with INVALID becomes the rejection's message. */
export type Verdict = TransactionStatus | { readonly status: TransactionStatus; readonly message?: string };

/** A transaction with what the pool needs derived once: its encoding, ID and sender. */
export type PoolCandidate = PreparedTransaction;

export interface PooledTransaction extends PoolCandidate {
  readonly feePriority: bigint;
  /** Milliseconds on the pool's clock. */
  readonly receivedAt: number;
}

/** Checks a candidate against the committed state; may be async (e.g. backed by a worker pool). */
export type VerifyTransaction = (candidate: PoolCandidate) => Verdict | Promise<Verdict>;

/** `duplicate`: the pool already held this ID, which Klayr also reports as success. */
export type AddResult =
  | { readonly ok: true; readonly duplicate: boolean }
  | { readonly ok: false; readonly error: TransactionPoolError };

export interface TransactionAddedEvent {
  readonly transaction: PooledTransaction;
}

export interface TransactionRemovedEvent {
  readonly transaction: PooledTransaction;
  readonly reason: string;
}

export interface PoolEventMap {
  added: [TransactionAddedEvent];
  removed: [TransactionRemovedEvent];
}

export const verdictStatus = (verdict: Verdict): TransactionStatus =>
  typeof verdict === 'number' ? verdict : verdict.status;
export const verdictMessage = (verdict: Verdict): string | undefined =>
  typeof verdict === 'number' ? undefined : verdict.message;

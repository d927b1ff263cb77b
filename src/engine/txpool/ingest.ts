import type { PreparedTransaction } from '../../lib/transaction/index.js';
import type { SignatureVerifier } from '../../workers/signature_verifier.js';
import type { ChainProcessor } from '../chain/processor.js';
import { VERIFY_STATUS } from '../state_machine/module.js';
import type { VerifyStatus } from '../state_machine/module.js';
import type { TransactionPool } from './pool.js';
import { TransactionStatus, verdictMessage, verdictStatus } from './types.js';

/** The state machine's verify status as the pool's (OK processable, PENDING kept for later, FAIL invalid). */
export const poolStatusOf = (status: VerifyStatus): TransactionStatus =>
  status === VERIFY_STATUS.OK ? TransactionStatus.PROCESSABLE : status === VERIFY_STATUS.PENDING ? TransactionStatus.UNPROCESSABLE : TransactionStatus.INVALID;

const FAILED = 'Transaction verification failed.';

/**
 * A transaction posted to the node: its signatures checked in the worker pool (batched with the
 * others of the same event-loop turn) when one is given, then nonce, fee and balance against the
 * tip on this thread, then admission. Throws with Klayr's message when it is refused.
 */
export const ingestTransaction = async (chain: ChainProcessor, pool: TransactionPool, signatures: SignatureVerifier | undefined, tx: PreparedTransaction): Promise<void> => {
  if (signatures !== undefined) {
    const verdict = await signatures.verify(tx);
    if (verdictStatus(verdict) === TransactionStatus.INVALID) throw new Error(verdictMessage(verdict) ?? FAILED);
  }
  const verified = chain.verifyTransaction(tx, false, signatures !== undefined);
  if (verified.status === VERIFY_STATUS.FAIL) throw new Error(verified.error?.message ?? FAILED);
  const added = pool.addVerified(tx, poolStatusOf(verified.status));
  if (!added.ok) throw new Error(added.error.message || FAILED);
};

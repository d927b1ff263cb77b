import type { MultisigKeys, PreparedTransaction } from '../../lib/transaction/index.js';
import type { SignatureVerifier } from '../pools/signature_verifier.js';
import type { VerifyStatus } from '../state_machine/module.js';
import { VERIFY_STATUS } from '../state_machine/module.js';
import type { VerifyResult } from '../state_machine/state_machine.js';
import type { TransactionPool } from './pool.js';
import type { TransactionVerifier } from './transaction_verifier.js';
import { TransactionStatus } from './types.js';

/** The state machine's verify status as the pool's (OK processable, PENDING kept for later, FAIL invalid). */
export const poolStatusOf = (status: VerifyStatus): TransactionStatus =>
  status === VERIFY_STATUS.OK
    ? TransactionStatus.PROCESSABLE
    : status === VERIFY_STATUS.PENDING
      ? TransactionStatus.UNPROCESSABLE
      : TransactionStatus.INVALID;

const FAILED = 'Transaction verification failed.';

const refuse = (result: VerifyResult): never => {
  throw new Error(result.error?.message ?? FAILED);
};

/**
 * A transaction posted to the node, checked in Klayr's order (the auth module's nonce rule,
 * its signatures, then fee, balance and the command) and added to the pool; throws with Klayr's
 * message when it is refused. With a signature pool, the state checks run first on this thread
 * and hand the signature check, with the sender's keys read once, to the pool (batched with the
 * other transactions of the same event-loop turn); a signature failure still takes precedence
 * over any failure after the point where auth checks signatures, and a transaction whose nonce
 * is already used never reaches the pool.
 */
export const ingestTransaction = async (
  verifier: TransactionVerifier,
  pool: TransactionPool,
  signatures: SignatureVerifier | undefined,
  tx: PreparedTransaction,
): Promise<void> => {
  let verified: VerifyResult;
  if (signatures === undefined) verified = verifier.verify(tx);
  else {
    const tip = verifier.tip();
    let check: { keys: MultisigKeys | undefined } | undefined;
    verified = verifier.verify(tx, false, (keys) => {
      check = { keys };
    });
    if (check === undefined) return refuse(verified);
    const failure = await signatures.verify(tx, check.keys);
    if (failure !== undefined) throw new Error(failure);
    // a block committed while the signatures were checked: verify again against the new tip, all on this thread
    if (verifier.tip() !== tip) verified = verifier.verify(tx);
  }
  if (verified.status === VERIFY_STATUS.FAIL) refuse(verified);
  const added = pool.addVerified(tx, poolStatusOf(verified.status));
  if (!added.ok) throw new Error(added.error.message || FAILED);
};

import type { MultisigKeys, PreparedTransaction } from '../../lib/transaction/index.js';
import type { SignatureVerifier } from '../pools/signature_verifier.js';
import type { SignatureCheck } from '../state_machine/module.js';

/** A transaction's signature check as the auth module asked for it: the sender's keys (undefined: single signature). */
export interface SignatureCheckItem {
  tx: PreparedTransaction;
  keys: MultisigKeys | undefined;
}

/**
 * Records the signature checks the auth module asks for while a block executes synchronously,
 * so that they run afterwards in a verifier (the `verify` pool) before the block is committed.
 */
export class SignatureRecorder {
  readonly #keys = new Map<PreparedTransaction, MultisigKeys | undefined>();

  /** The state machine's checkSignatures hook for one transaction. */
  readonly hookFor =
    (tx: PreparedTransaction): SignatureCheck =>
    (keys) => {
      this.#keys.set(tx, keys);
    };

  /** The recorded checks of the transactions that ended up in the block, in block order. */
  checksOf(included: readonly PreparedTransaction[]): SignatureCheckItem[] {
    return included.filter((tx) => this.#keys.has(tx)).map((tx) => ({ tx, keys: this.#keys.get(tx) }));
  }
}

/** The checks that fail, with why, in block order. */
export const signatureFailures = async (
  checks: readonly SignatureCheckItem[],
  verifier: SignatureVerifier,
): Promise<{ tx: PreparedTransaction; reason: string }[]> => {
  const verdicts = await Promise.all(checks.map(({ tx, keys }) => verifier.verify(tx, keys)));
  return checks.flatMap(({ tx }, i) => (verdicts[i] === undefined ? [] : [{ tx, reason: verdicts[i] }]));
};

/** Throws the error Klayr's block execution throws for the first transaction whose signatures fail. */
export const assertSignatures = async (
  checks: readonly SignatureCheckItem[],
  verifier: SignatureVerifier,
): Promise<void> => {
  const [first] = await signatureFailures(checks, verifier);
  if (first !== undefined)
    throw new Error(`Failed to verify transaction ${first.tx.id.toString('hex')}. ${first.reason}`);
};

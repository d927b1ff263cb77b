import { rememberPopVerifications } from '../../lib/crypto/bls.js';
import type { BlsVerifier, PopItem } from './bls_verifier.js';

/**
 * Checks proofs of possession with a verifier (the `bls` pool's threads in a node) and remembers
 * the verdicts for blsPopVerify, so that the synchronous state machine (a genesis block's 100+
 * validators, a block's validator registrations) finds each answer instead of running a pairing
 * in JavaScript on the main thread.
 */
export const prefetchProofsOfPossession = async (items: readonly PopItem[], verifier: BlsVerifier): Promise<void> => {
  if (items.length === 0) return;
  const verdicts = await verifier.verifyProofsOfPossession(items);
  rememberPopVerifications(items.map((item, i) => ({ ...item, valid: verdicts[i] === true })));
};

import { sha256Concat } from '../../lib/crypto/hash.js';
import type { AggregateCheck } from '../../lib/interop/aggregate_verdicts.js';
import { rememberAggregateVerdicts } from '../../lib/interop/aggregate_verdicts.js';
import type { BlsVerifier } from './bls_verifier.js';

/**
 * Checks the weighted aggregate signatures transactions will verify (cross-chain update
 * certificates, mainchain registrations) with a verifier (the `bls` pool's threads in a node) and
 * remembers the verdicts, so that the synchronous state machine finds each answer instead of
 * running the pairing on the main thread. A check the state machine then makes with other inputs
 * (state changed by an earlier transaction of the block) is not found and runs where it is made.
 */
export const prefetchAggregateSignatures = async (
  checks: readonly AggregateCheck[],
  verifier: BlsVerifier,
): Promise<void> => {
  if (checks.length === 0) return;
  const verdicts = await Promise.all(
    checks.map((check) =>
      verifier.verifyAggregate(
        {
          // the worker caches a key set's parsed keys under this ID
          keySetID: sha256Concat(...check.publicKeys),
          publicKeys: check.publicKeys,
          weights: check.weights,
          threshold: check.threshold,
          aggregationBits: check.aggregationBits,
          signature: check.signature,
          tag: check.tag,
          chainID: check.chainID,
          message: check.message,
        },
        { batchable: true },
      ),
    ),
  );
  rememberAggregateVerdicts(checks.map((check, i) => ({ check, valid: verdicts[i] === true })));
};

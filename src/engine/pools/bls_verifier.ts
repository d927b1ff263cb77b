import type { WeightedAggregateRequest } from '../../lib/crypto/bls_key_cache.js';
import { BLSKeyCache } from '../../lib/crypto/bls_key_cache.js';
import type { PopItem, SingleSignatureRequest } from '../../lib/crypto/bls_requests.js';
import { verifyProofsOfPossession, verifySingleSignatures } from '../../lib/crypto/bls_requests.js';
import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';

export type { WeightedAggregateRequest } from '../../lib/crypto/bls_key_cache.js';
export type { PopItem, SingleSignatureRequest } from '../../lib/crypto/bls_requests.js';

/** How a check may be run (Lodestar's VerifySignatureOpts). */
export interface BlsVerifyOptions {
  /**
   * The caller does not need the answer at once: the pool may hold the check until the end of
   * the event loop's turn and send it to a thread together with others asked for in that turn.
   */
  batchable?: boolean;
}

/** BLS12-381 checks of consensus (the `bls` pool in a node). */
export interface BlsVerifier {
  /** An aggregate commit or a certificate: enough BFT weight signed the message, their aggregate signature verifies. */
  verifyAggregate(request: WeightedAggregateRequest, options?: BlsVerifyOptions): Promise<boolean>;
  /** Single commits (one validator's signature of a certificate each): a verdict per request, in order. */
  verifySingles(requests: readonly SingleSignatureRequest[], options?: BlsVerifyOptions): Promise<boolean[]>;
  /** Proofs of possession of BLS keys: a verdict per item, in order. */
  verifyProofsOfPossession(items: readonly PopItem[], options?: BlsVerifyOptions): Promise<boolean[]>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** On the calling thread, with a cache of each validator set's parsed keys (tests, tools). */
export const createLocalBlsVerifier = (): BlsVerifier => {
  const cache = new BLSKeyCache();
  const tally = new TaskTally();
  return {
    verifyAggregate: async (request) => tally.timeSync(() => cache.verifyWeighted(request)),
    verifySingles: async (requests) => tally.timeSync(() => verifySingleSignatures(requests)),
    verifyProofsOfPossession: async (items) => tally.timeSync(() => verifyProofsOfPossession(items)),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};

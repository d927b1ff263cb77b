import { availableParallelism } from 'node:os';
import type { PoolStats } from '../lib/pool_stats.js';
import { TaskTally } from '../lib/pool_stats.js';
import type { MultisigKeys, PreparedTransaction } from '../lib/transaction/index.js';
import {
  signatureFailure,
  signaturePlan,
  signingBytesOfEncoded,
  transactionSigningDigest,
} from '../lib/transaction/index.js';
import { batching } from './batching.js';
import type { SignatureBatch, SignatureChecks } from './signature_task.js';
import { packBatch } from './signature_task.js';
import { ThreadPool } from './thread_pool.js';

/** A burst's first signatures go to the threads after this many, while the rest are still being checked against state. */
const EAGER_BATCH = 8;

/** Signature checks are background work: the main thread preparing the next batches (and serving RPC) goes first. */
const VERIFY_NICENESS = 10;

/**
 * Signatures a thread holds before the pool keeps the rest: about 13 ms of ed25519 checks here, longer than a
 * block of 100 transfers executes, so that a received block's checks all run while it does (at three
 * batches of 8 a thread, most waited for the execution to end: the pool hands out tasks on the main thread).
 */
const SIGNATURES_AHEAD = 256;

/**
 * The `verify` pool (a SignatureVerifier): batches of signature checks in worker threads, so the RPC front never waits
 * on them. One thread per core by default: a transaction's work on the main thread is a fraction
 * of its signature check, and the threads wait on nothing else. The auth module's rule is split
 * in two: this thread plans the checks (signature counts, empty slots) and hashes the signing
 * digest once per transaction; the threads only run ed25519.
 */
export const createPooledSignatureVerifier = (chainID: Buffer, threads = availableParallelism()) => {
  const tally = new TaskTally();
  const pool = new ThreadPool<SignatureBatch, number[]>('signature_task.js', threads, {
    niceness: VERIFY_NICENESS,
    weightAhead: SIGNATURES_AHEAD,
  });
  const firstInvalid = batching(
    (checks: readonly SignatureChecks[]) => {
      const batch = packBatch(checks);
      return tally.time(() =>
        pool.run(
          batch,
          [batch.packed.buffer as ArrayBuffer],
          checks.reduce((pairs, c) => pairs + c.pairs.length, 0),
        ),
      );
    },
    128,
    threads,
    EAGER_BATCH,
  );
  return {
    verify: async (tx: PreparedTransaction, keys: MultisigKeys | undefined): Promise<string | undefined> => {
      const plan = signaturePlan(tx.transaction, keys, () => tx.id);
      if (plan.pairs.length === 0) return plan.failure;
      const digest = transactionSigningDigest(chainID, signingBytesOfEncoded(tx.transaction, tx.bytes));
      return signatureFailure(plan, await firstInvalid({ digest, pairs: plan.pairs }), tx.id);
    },
    verifyDigest: async (digest: Buffer, signature: Buffer, key: Buffer): Promise<boolean> =>
      (await firstInvalid({ digest, pairs: [{ key, signature }] })) === -1,
    stats: (): PoolStats => tally.stats(pool.queueSize),
    close: () => pool.close(),
  };
};

import { availableParallelism } from 'node:os';
import { ThreadPool } from './thread_pool.js';
import type { MultisigKeys, PreparedTransaction } from '../lib/transaction/index.js';
import { batching } from './batching.js';
import { packBatch } from './signature_task.js';
import type { SignatureBatch } from './signature_task.js';

export interface SignatureVerifier {
  /**
   * Checks a transaction's signatures by the auth module's rules for the sender's multisignature
   * keys (undefined: a single-signature account): undefined when valid, otherwise why not.
   */
  verify(tx: PreparedTransaction, keys: MultisigKeys | undefined): Promise<string | undefined>;
  queueSize(): number;
  close(): Promise<void>;
}

interface Request {
  readonly tx: PreparedTransaction;
  readonly keys: MultisigKeys | undefined;
}

/** A burst's first signatures go to the threads after this many, while the rest are still being checked against state. */
const EAGER_BATCH = 16;

type RunBatch = (batch: SignatureBatch) => Promise<(string | undefined)[]>;

const verifierOver = (run: RunBatch, chainID: Buffer, threads: number) => {
  const verify = batching(
    (requests: readonly Request[]) =>
      run(
        packBatch(
          chainID,
          requests.map((r) => r.tx.bytes),
          requests.map((r) => r.keys ?? null),
        ),
      ),
    128,
    threads,
    EAGER_BATCH,
  );
  return (tx: PreparedTransaction, keys: MultisigKeys | undefined) => verify({ tx, keys });
};

/**
 * The `verify` pool: batches of signature checks in worker threads, so the RPC front never waits
 * on them. One thread per core by default: a transaction's work on the main thread is a fraction
 * of its signature check, and the threads wait on nothing else.
 */
export const createPooledSignatureVerifier = (chainID: Buffer, threads = availableParallelism()): SignatureVerifier => {
  const pool = new ThreadPool<SignatureBatch, (string | undefined)[]>('signature_task.js', threads);
  return {
    verify: verifierOver((batch) => pool.run(batch, [batch.packed.buffer as ArrayBuffer], batch.lengths.length), chainID, threads),
    queueSize: () => pool.queueSize,
    close: () => pool.close(),
  };
};

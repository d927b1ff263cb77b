import { availableParallelism } from 'node:os';
import { workerPool } from './worker_pool.js';
import type { MultisigKeys } from '../lib/transaction/index.js';
import { batchingVerifier } from '../engine/txpool/batching_verifier.js';
import type { PoolCandidate, VerifyTransaction } from '../engine/txpool/types.js';
import { TransactionStatus } from '../engine/txpool/types.js';
import { packBatch, verifySignatureBatch } from './signature_task.js';
import type { SignatureBatch } from './signature_task.js';

export interface SignatureVerifier {
  /** PROCESSABLE when the signatures are valid, INVALID with the reason otherwise. */
  verify: VerifyTransaction;
  queueSize(): number;
  close(): Promise<void>;
}

type RunBatch = (batch: SignatureBatch) => Promise<(string | undefined)[]>;

const verifierOver = (run: RunBatch, chainID: Buffer, accountOf: (address: Buffer) => MultisigKeys | undefined, threads = 1): VerifyTransaction =>
  batchingVerifier(async (candidates: readonly PoolCandidate[]) => {
    const messages = await run(packBatch(chainID, candidates.map((c) => c.bytes), candidates.map((c) => accountOf(c.senderAddress) ?? null)));
    return messages.map((message) => (message === undefined ? TransactionStatus.PROCESSABLE : { status: TransactionStatus.INVALID, message }));
  }, 128, threads);

/** Signature checks batched per event-loop turn and run on this thread. */
export const createLocalSignatureVerifier = (chainID: Buffer, accountOf: (address: Buffer) => MultisigKeys | undefined): SignatureVerifier => ({
  verify: verifierOver(async (batch) => verifySignatureBatch(batch), chainID, accountOf),
  queueSize: () => 0,
  close: async () => undefined,
});

/** The `verify` pool: batches of signature checks in worker threads, so the RPC front never waits on them. */
export const createPooledSignatureVerifier = (chainID: Buffer, accountOf: (address: Buffer) => MultisigKeys | undefined, threads = Math.max(1, availableParallelism() - 1)): SignatureVerifier => {
  const pool = workerPool('signature_task.js', threads);
  return {
    verify: verifierOver(async (batch) => (await pool.run(batch, { transferList: [batch.packed.buffer as ArrayBuffer] })) as (string | undefined)[], chainID, accountOf, threads),
    queueSize: () => pool.queueSize,
    close: () => pool.destroy(),
  };
};

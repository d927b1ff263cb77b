import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { postedTransaction } from '../src/engine/endpoint/txpool.js';
import { TransactionPool } from '../src/engine/txpool/index.js';
import { ingestTransaction } from '../src/engine/txpool/ingest.js';
import { certificateSignatureRequest, signCertificate, sortByBLSKey } from '../src/lib/chain/certificate.js';
import { createAggSig } from '../src/lib/crypto/aggregate.js';
import { BLSKeyCache } from '../src/lib/crypto/bls_key_cache.js';
import { encodeTransaction } from '../src/lib/transaction/index.js';
import { createPooledBlsVerifier } from '../src/workers/bls_verifier.js';
import { createPooledSignatureVerifier } from '../src/workers/signature_verifier.js';
import { ThreadPool } from '../src/workers/thread_pool.js';
import { devValidators } from '../test/helpers/devnet.js';
import { executionFixture, measureExecution, TRANSFERS } from './execution.bench.js';
import type { ComparisonResult } from './harness.js';
import { compareRates, printAndSave } from './harness.js';
import type { RawVerifyBatch } from './raw_verify_task.js';

export const chainBench = async () => {
  const fixture = executionFixture();
  const { transactionVerifier, chainID, txs, signed } = fixture;
  const cores = availableParallelism();
  const signaturePool = createPooledSignatureVerifier(chainID, cores);
  const rawPool = new ThreadPool<RawVerifyBatch, number>(new URL('./raw_verify_task.js', import.meta.url), cores);
  const chunk = Math.ceil(signed.length / cores);
  const rawChunks = Array.from({ length: cores }, (_, i) => signed.slice(i * chunk, (i + 1) * chunk)).map((part) => ({
    digests: part.map((s) => s.digest),
    signatures: part.map((s) => s.signature),
    keys: part.map((s) => s.key),
  }));
  const rawVerifiesOnAllCores = async () => {
    const valid = (await Promise.all(rawChunks.map((c) => rawPool.run(c)))).reduce((a, b) => a + b, 0);
    if (valid !== signed.length) throw new Error('a signature did not verify');
  };
  const posted = txs.map((tx) => encodeTransaction(tx).toString('hex'));
  const ingest = await compareRates(
    {
      name: `txpool ingest of ${TRANSFERS} posted transfers as txpool_postTransaction takes them: decode, signatures in the verify pool (${cores} threads, batched), state checks, admission`,
      ours: async () => {
        const pool = new TransactionPool({ verifyTransaction: () => 1 });
        await Promise.all(
          posted.map((hex) => ingestTransaction(transactionVerifier, pool, signaturePool, postedTransaction(hex))),
        );
        if (pool.size !== TRANSFERS) throw new Error('a transfer was not admitted');
      },
      baseline: rawVerifiesOnAllCores,
      baselineName: `${TRANSFERS} raw ed25519 verifies on ${cores} cores (${cores} worker threads, sodium)`,
      goal: 0.7,
    },
    { warmupMs: 4000, roundMs: 2000, rounds: 3 },
  );
  const execution = await measureExecution(fixture);
  const results = [ingest, execution];
  printAndSave('chain', results);
  await signaturePool.close();
  await rawPool.close();
  const blockRate = execution.oursOpsPerSec;
  console.log(`block processing: ${blockRate * TRANSFERS} transfers/s in blocks of ${TRANSFERS}`);
  if (process.env.KESTREL_SKIP_CERTS === undefined) await certificateBench();
  return results;
};

/** Certificates signed by 51 and 103 validators: weighted aggregate verification with the bls pool and a key cache against one thread parsing the keys every time. */
export const certificateBench = async () => {
  const chainID = Buffer.from('04000000', 'hex');
  const validators = devValidators().map((v) => ({
    blsKey: Buffer.from(v.plain.blsKey, 'hex'),
    blsPrivateKey: Buffer.from(v.plain.blsPrivateKey, 'hex'),
    bftWeight: 1n,
  }));
  const certificate = {
    blockID: randomBytes(32),
    height: 1000,
    timestamp: 1700000000,
    stateRoot: randomBytes(32),
    validatorsHash: randomBytes(32),
  };
  const requests = [51, 103].map((n) => {
    const set = sortByBLSKey(validators.slice(0, n));
    const pairs = set.map((v) => ({
      publicKey: v.blsKey,
      signature: signCertificate(v.blsPrivateKey, chainID, certificate),
    }));
    const { aggregationBits, signature } = createAggSig(
      set.map((v) => v.blsKey),
      pairs,
    );
    return certificateSignatureRequest(
      certificate.validatorsHash,
      set,
      BigInt(Math.floor((2 * n) / 3) + 1),
      chainID,
      certificate,
      aggregationBits,
      signature,
    );
  });
  const TASKS = 64;
  const results: ComparisonResult[] = [];
  for (const request of requests) {
    const n = request.publicKeys.length;
    if (!new BLSKeyCache().verifyWeighted(request)) throw new Error('the certificate does not verify');
    const timed = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return (TASKS * 1000) / (performance.now() - started);
    };
    const oneThread = await timed(async () => {
      for (let i = 0; i < TASKS; i++) new BLSKeyCache().verifyWeighted(request);
    });
    const cache = new BLSKeyCache();
    const cached = await timed(async () => {
      for (let i = 0; i < TASKS; i++) cache.verifyWeighted(request);
    });
    const threads = Math.max(1, availableParallelism());
    const pool = createPooledBlsVerifier(threads);
    await Promise.all(Array.from({ length: threads * 2 }, () => pool.verifyAggregate(request)));
    const pooled = await timed(() => Promise.all(Array.from({ length: TASKS }, () => pool.verifyAggregate(request))));
    await pool.close();
    const baseline = `one thread, keys parsed per check (as Klayr's verifyWeightedAggSig)`;
    results.push({
      name: `certificate of ${n} validators, main thread with key cache`,
      baseline,
      oursOpsPerSec: Math.round(cached),
      baselineOpsPerSec: Math.round(oneThread),
      ratio: Number((cached / oneThread).toFixed(2)),
    });
    results.push({
      name: `certificate of ${n} validators, bls pool of ${threads} threads with key caches, ${TASKS} concurrent`,
      baseline,
      oursOpsPerSec: Math.round(pooled),
      baselineOpsPerSec: Math.round(oneThread),
      ratio: Number((pooled / oneThread).toFixed(2)),
    });
  }
  printAndSave('certificates', results, { cores: availableParallelism(), tasks: TASKS });
};

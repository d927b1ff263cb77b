import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { describe, it } from 'node:test';
import { blsPopVerify } from '../../src/lib/crypto/bls.js';
import { prefetchProofsOfPossession } from '../../src/workers/pop_prefetch.js';
import { TASKS_PER_THREAD, ThreadPool } from '../../src/workers/thread_pool.js';
import { keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { encodeTransaction, prepareTransaction, signMultiSignatureTransaction, signTransaction, verifyTransactionSignatures } from '../../src/lib/transaction/index.js';
import type { MultisigKeys, TransactionObject } from '../../src/lib/transaction/index.js';
import { createPooledSignatureVerifier } from '../../src/workers/signature_verifier.js';
import { devValidators } from '../helpers/devnet.js';
import type { ThreadTaskPayload } from '../helpers/thread_task.js';

const task = new URL('../helpers/thread_task.js', import.meta.url);

describe('ThreadPool', () => {
  it('runs tasks on its threads, transfers buffers, reports task errors and survives a thread that dies', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 2);
    try {
      assert.deepEqual(await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run({ op: 'double', value: i }))), Array.from({ length: 20 }, (_, i) => i * 2));
      const bytes = new Uint8Array(new ArrayBuffer(1000));
      assert.equal(await pool.run({ op: 'length', bytes }, [bytes.buffer]), 1000);
      assert.equal(bytes.byteLength, 0, 'the buffer was moved, not copied');
      await assert.rejects(pool.run({ op: 'throw' }), /the task refused/);
      await assert.rejects(pool.run({ op: 'exit' }), /exited with code 3/);
      // the dead thread was replaced: both threads answer again
      assert.deepEqual(await Promise.all([1, 2, 3, 4].map((value) => pool.run({ op: 'double', value }))), [2, 4, 6, 8]);
      assert.equal(pool.queueSize, 0);
    } finally {
      await pool.close();
    }
    await assert.rejects(pool.run({ op: 'double', value: 1 }), /closed/);
  });

  it('a task module that cannot load fails the tasks and then every run, without restarting threads', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(new URL('../helpers/no_such_task.js', import.meta.url), 1);
    try {
      await assert.rejects(pool.run({ op: 'double', value: 1 }), /exited|Cannot find module|ERR_MODULE_NOT_FOUND/);
      await assert.rejects(pool.run({ op: 'double', value: 2 }), /exited|Cannot find module|ERR_MODULE_NOT_FOUND/);
    } finally {
      await pool.close();
    }
  });

  it('refuses a thread count that is not a positive integer, and a niceness outside 0..19', () => {
    assert.throws(() => new ThreadPool(task, 0), /positive integer/);
    assert.throws(() => new ThreadPool(task, 1.5), /positive integer/);
    assert.throws(() => new ThreadPool(task, 1, { niceness: 20 }), /niceness/);
    assert.throws(() => new ThreadPool(task, 1, { niceness: -1 }), /niceness/);
  });

  it('a thread busy with a long task holds at most TASKS_PER_THREAD - 1 tasks behind it; the others go to the free thread', async () => {
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 2);
    try {
      await Promise.all([1, 2].map((value) => pool.run({ op: 'double', value })));
      const done: string[] = [];
      const long = pool.run({ op: 'busy', ms: 400 }).then(() => done.push('long'));
      const short = Array.from({ length: 10 }, (_, i) => pool.run({ op: 'busy', ms: 5 }).then(() => done.push(`short ${i}`)));
      assert.ok(pool.queueSize > 0);
      await Promise.all([long, ...short]);
      assert.ok(done.indexOf('long') >= 10 - (TASKS_PER_THREAD - 1), `finished in the order ${done.join(', ')}`);
    } finally {
      await pool.close();
    }
  });

  it('runs its threads nicer by the niceness asked for (Linux keeps it per thread)', { skip: process.platform !== 'linux' }, async () => {
    const before = getPriority(0);
    const pool = new ThreadPool<ThreadTaskPayload, number>(task, 1, { niceness: 7 });
    try {
      assert.equal(await pool.run({ op: 'nice' }), Math.min(19, before + 7));
      assert.equal(getPriority(0), before, 'the main thread keeps its own');
    } finally {
      await pool.close();
    }
  });
});

describe('proofs of possession checked on worker threads', () => {
  it('are remembered with their own verdicts: valid ones true, a proof under another key false', async () => {
    const keys = devValidators().slice(40, 49);
    const items = keys.map((v, i) => ({
      pk: Buffer.from(v.plain.blsKey, 'hex'),
      // every third one carries the next validator's proof
      proof: Buffer.from((i % 3 === 2 ? keys[(i + 1) % keys.length]! : v).plain.blsProofOfPossession, 'hex'),
    }));
    await prefetchProofsOfPossession(items, 2);
    assert.deepEqual(
      items.map(({ pk, proof }) => blsPopVerify(pk, proof)),
      items.map((_, i) => i % 3 !== 2),
    );
  });
});

describe('signature checks in the verify pool', () => {
  it('reach the same verdict and message as the auth module on this thread, single and multisignature', async () => {
    const chainID = Buffer.from('04000000', 'hex');
    const seed = (n: number) => Buffer.alloc(32, n);
    const members = [1, 2, 3, 4].map((n) => keyPairFromSeed(seed(n)));
    const sortKeys = (keys: Buffer[]) => [...keys].sort(Buffer.compare);
    const account: MultisigKeys = { numberOfSignatures: 3, mandatoryKeys: sortKeys(members.slice(0, 2).map((m) => m.publicKey)), optionalKeys: sortKeys(members.slice(2).map((m) => m.publicKey)) };
    const base: TransactionObject = { module: 'token', command: 'transfer', nonce: 3n, fee: 1000000n, senderPublicKey: members[0]!.publicKey, params: Buffer.alloc(40, 5), signatures: [] };
    const single = signTransaction(base, chainID, members[0]!.privateKey);
    let multi = base;
    for (const m of [members[0]!, members[1]!, members[3]!]) multi = signMultiSignatureTransaction(multi, chainID, m.privateKey, account);
    const signedOptional = multi.signatures.findIndex((s, i) => i >= 2 && s.length > 0);
    const withSignatures = (tx: TransactionObject, change: (s: Buffer, i: number) => Buffer): TransactionObject => ({ ...tx, signatures: tx.signatures.map(change) });
    const cases: [TransactionObject, MultisigKeys | undefined][] = [
      [single, undefined],
      [withSignatures(single, () => Buffer.alloc(64, 9)), undefined],
      [{ ...single, signatures: [single.signatures[0]!, single.signatures[0]!] }, undefined],
      [{ ...single, nonce: 4n }, undefined],
      [multi, account],
      [multi, { ...account, numberOfSignatures: 4 }],
      [withSignatures(multi, (s, i) => (i === 0 ? Buffer.alloc(0) : s)), { ...account, numberOfSignatures: 2 }],
      [withSignatures(multi, (s, i) => (i === 1 ? Buffer.alloc(64, 1) : s)), account],
      // a forged optional signature after a missing mandatory one: the missing one is met first
      [withSignatures(multi, (s, i) => (i === 1 ? Buffer.alloc(0) : i === signedOptional ? Buffer.alloc(64, 1) : s)), { ...account, numberOfSignatures: 2 }],
      [withSignatures(multi, (s, i) => (i === signedOptional ? Buffer.alloc(0) : s)), { ...account, numberOfSignatures: 2 }],
    ];
    const pool = createPooledSignatureVerifier(chainID, 2);
    try {
      const pooled = await Promise.all(cases.map(([tx, keys]) => pool.verify(prepareTransaction(tx, encodeTransaction(tx)), keys)));
      const here = cases.map(([tx, keys]) => {
        try {
          verifyTransactionSignatures(tx, chainID, keys);
          return undefined;
        } catch (error) {
          return (error as Error).message;
        }
      });
      assert.deepEqual(pooled, here);
      assert.deepEqual(
        here.map((m) => m?.replace(/'[0-9a-f]{64,}'/g, "'..'")),
        [
          undefined,
          "Failed to validate signature '..' for transaction with id '..'",
          'Transactions from a single signature account should have exactly one signature. Found 2 signatures.',
          "Failed to validate signature '..' for transaction with id '..'",
          undefined,
          "Transaction signatures does not match required number of signatures: '4' for transaction with id '..'",
          'Missing signature for a mandatory key.',
          "Failed to validate signature '..' for transaction with id '..'",
          'Missing signature for a mandatory key.',
          undefined,
        ],
      );
    } finally {
      await pool.close();
    }
  });
});

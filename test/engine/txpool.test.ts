import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  AddResult,
  PoolCandidate,
  Scheduler,
  TransactionPoolOptions,
  Verdict,
} from '../../src/engine/txpool/index.js';
import {
  DEFAULT_EXPIRE_INTERVAL_MS,
  DEFAULT_REORGANIZE_INTERVAL_MS,
  poolOptionsFromConfig,
  resolvePoolOptions,
  TransactionPool,
  TransactionStatus,
} from '../../src/engine/txpool/index.js';
import { prepareTransaction } from '../../src/lib/transaction/prepared.js';
import type { TransactionObject } from '../../src/lib/transaction/schema.js';
import { encodeTransaction, senderAddress, transactionID } from '../../src/lib/transaction/transaction.js';
import { batching } from '../../src/workers/batching.js';
import { klayrChain } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
// Loaded after ../helpers/klayr.js, which makes @klayr/cryptography loadable offline.
const klayrPool: any = createRequire(import.meta.url)('@klayr/transaction-pool');
/* eslint-enable @typescript-eslint/no-explicit-any */

const senderKey = (i: number): Buffer => Buffer.alloc(32, i + 1);
const hex = (b: Buffer): string => b.toString('hex');

interface TxSpec {
  sender?: number;
  nonce: bigint;
  fee?: bigint;
  params?: Buffer;
  module?: string;
}

const makeTx = ({
  sender = 0,
  nonce,
  fee = 1_000_000n,
  params = Buffer.alloc(10),
  module = 'token',
}: TxSpec): TransactionObject => ({
  module,
  command: 'transfer',
  nonce,
  fee,
  senderPublicKey: senderKey(sender),
  params,
  signatures: [Buffer.alloc(64, 7)],
});

/** Account nonces of a pretend chain state; module 'bad' marks a transaction the state rejects whatever its nonce. */
class NonceState {
  readonly #nonces = new Map<string, bigint>();

  nonceOf(address: Buffer): bigint {
    return this.#nonces.get(hex(address)) ?? 0n;
  }

  advance(address: Buffer, by: bigint): void {
    this.#nonces.set(hex(address), this.nonceOf(address) + by);
  }

  status(address: Buffer, nonce: bigint, module: string): TransactionStatus {
    const accountNonce = this.nonceOf(address);
    if (module === 'bad' || nonce < accountNonce) return TransactionStatus.INVALID;
    return nonce === accountNonce ? TransactionStatus.PROCESSABLE : TransactionStatus.UNPROCESSABLE;
  }

  verifier(): (c: PoolCandidate) => Promise<Verdict> {
    return async (c) => this.status(c.senderAddress, c.transaction.nonce, c.transaction.module);
  }
}

/** A scheduler that runs its tasks only when told to. */
class ManualScheduler implements Scheduler {
  readonly pending = new Set<{ task: () => void; delayMs: number }>();

  schedule(task: () => void, delayMs: number): () => void {
    const entry = { task, delayMs };
    this.pending.add(entry);
    return () => this.pending.delete(entry);
  }

  runDue(delayMs: number): void {
    for (const entry of [...this.pending]) {
      if (entry.delayMs !== delayMs) continue;
      this.pending.delete(entry);
      entry.task();
    }
  }
}

const newPool = (state: NonceState, options: Partial<TransactionPoolOptions> = {}): TransactionPool =>
  new TransactionPool({ verifyTransaction: state.verifier(), scheduler: new ManualScheduler(), ...options });

const expectOk = (result: AddResult): void => assert.deepEqual(result, { ok: true, duplicate: false });

const expectFail = (result: AddResult, code: string, message: string): void => {
  assert.equal(result.ok, false, `expected ${code}`);
  if (result.ok) return;
  assert.equal(result.error.code, code);
  assert.equal(result.error.message, message);
  assert.equal(result.error.name, 'TransactionPoolError');
};

const processableIDs = (pool: TransactionPool): [string, string[]][] =>
  [...pool.getProcessableTransactions()].map(([address, txs]) => [address, txs.map((t) => hex(t.id))]);

const idsOf = (...txs: TransactionObject[]): string[] => txs.map((t) => hex(transactionID(t)));

describe('transaction pool: config and fee priority', () => {
  it("defaults are Klayr Core's transactionPool section; the config section's strings become bigints", () => {
    const resolved = resolvePoolOptions({ verifyTransaction: () => TransactionStatus.PROCESSABLE });
    assert.equal(resolved.maxTransactions, 4096);
    assert.equal(resolved.maxTransactionsPerAccount, 64);
    assert.equal(resolved.transactionExpiryTime, 3 * 60 * 60 * 1000);
    assert.equal(resolved.minEntranceFeePriority, 0n);
    assert.equal(resolved.minReplacementFeeDifference, 10n);
    assert.equal(resolved.maxPayloadLength, 15360);
    assert.equal(resolved.reorganizeInterval, DEFAULT_REORGANIZE_INTERVAL_MS);
    assert.equal(resolved.expireInterval, DEFAULT_EXPIRE_INTERVAL_MS);
    const fromConfig = poolOptionsFromConfig(
      { maxTransactions: 5, minEntranceFeePriority: '7', minReplacementFeeDifference: '18446744073709551615' },
      20000,
    );
    const r = resolvePoolOptions({ verifyTransaction: () => TransactionStatus.PROCESSABLE, ...fromConfig });
    assert.equal(r.maxTransactions, 5);
    assert.equal(r.maxTransactionsPerAccount, 64);
    assert.equal(r.minEntranceFeePriority, 7n);
    assert.equal(r.minReplacementFeeDifference, 2n ** 64n - 1n);
    assert.equal(r.maxPayloadLength, 20000);
    assert.throws(
      () => resolvePoolOptions({ verifyTransaction: () => 1, maxTransactions: 0 }),
      /maxTransactions must be a positive integer/,
    );
    assert.throws(
      () => resolvePoolOptions({ verifyTransaction: () => 1, minEntranceFeePriority: -1n }),
      /must not be negative/,
    );
  });

  it('fee priority is fee / byte length, truncated (minus a minimum fee when one is given)', async () => {
    const state = new NonceState();
    const tx = makeTx({ nonce: 0n, fee: 12345n });
    const size = BigInt(encodeTransaction(tx).length);
    const pool = newPool(state);
    expectOk(await pool.add(tx));
    assert.equal(pool.get(transactionID(tx))!.feePriority, 12345n / size);
    const withMinFee = newPool(state, { minFee: (c) => BigInt(c.bytes.length) * 10n });
    expectOk(await withMinFee.add(tx));
    assert.equal(withMinFee.get(transactionID(tx))!.feePriority, (12345n - size * 10n) / size);
  });
});

describe('transaction pool: admission rules', () => {
  it('a first transaction at the account nonce is processable; the next waits for reorganize; lists are per sender in nonce order', async () => {
    const state = new NonceState();
    const pool = newPool(state);
    const a0 = makeTx({ nonce: 0n });
    const a1 = makeTx({ nonce: 1n });
    const a3 = makeTx({ nonce: 3n });
    const b0 = makeTx({ sender: 1, nonce: 0n });
    for (const tx of [a1, a0, a3, b0]) expectOk(await pool.add(tx));
    assert.equal(pool.size, 4);
    // a1 arrived first (pending), a0 then became the processable head
    assert.deepEqual(processableIDs(pool), [
      [hex(senderAddress(a0)), idsOf(a0)],
      [hex(senderAddress(b0)), idsOf(b0)],
    ]);
    await pool.reorganize();
    assert.deepEqual(processableIDs(pool), [
      [hex(senderAddress(a0)), idsOf(a0, a1)],
      [hex(senderAddress(b0)), idsOf(b0)],
    ]);
    assert.deepEqual(
      pool.getAll().map((t) => hex(t.id)),
      idsOf(a1, a0, a3, b0),
    );
    assert.ok(pool.contains(transactionID(a3)));
    assert.equal(pool.get(transactionID(a3))!.transaction, a3);
    assert.equal(pool.get(Buffer.alloc(32)), undefined);
  });

  it('a duplicate is a success that changes nothing', async () => {
    const state = new NonceState();
    const pool = newPool(state);
    const added: string[] = [];
    pool.events.on('added', ({ transaction }) => added.push(hex(transaction.id)));
    const tx = makeTx({ nonce: 0n });
    expectOk(await pool.add(tx));
    assert.deepEqual(await pool.add(tx), { ok: true, duplicate: true });
    assert.deepEqual(pool.addVerified(prepareTransaction(tx), TransactionStatus.PROCESSABLE), {
      ok: true,
      duplicate: true,
    });
    assert.deepEqual(added, idsOf(tx));
  });

  it('rejects a transaction longer than maxPayloadLength, and one under the minimum entrance fee priority', async () => {
    const state = new NonceState();
    const pool = newPool(state, { maxPayloadLength: 200, minEntranceFeePriority: 100n });
    expectFail(
      await pool.add(makeTx({ nonce: 0n, params: Buffer.alloc(100) })),
      'TOO_LARGE',
      'Transaction byte length is greater than 200',
    );
    const cheap = makeTx({ nonce: 0n, fee: 1000n });
    const result = await pool.add(cheap);
    expectFail(
      result,
      'FEE_PRIORITY_BELOW_MINIMUM',
      'Rejecting transaction due to failed minimum entrance fee priority requirement.',
    );
    assert.ok(!result.ok);
    const priority = 1000n / BigInt(encodeTransaction(cheap).length);
    assert.equal(
      result.error.toString(),
      `TransactionPool: ${hex(transactionID(cheap))} failed to process at .fee: Rejecting transaction due to failed minimum entrance fee priority requirement., actual: ${priority}, expected: 100`,
    );
    assert.equal(pool.size, 0);
  });

  it("a transaction the verifier calls INVALID (e.g. nonce below the account nonce) is rejected with the verifier's message if any", async () => {
    const state = new NonceState();
    state.advance(senderAddress(makeTx({ nonce: 0n })), 5n);
    const pool = newPool(state);
    expectFail(await pool.add(makeTx({ nonce: 4n })), 'INVALID', 'Invalid transaction');
    const explaining = newPool(state, {
      verifyTransaction: () => ({
        status: TransactionStatus.INVALID,
        message: 'Incoming transaction nonce 4 is lower than account nonce 5',
      }),
    });
    expectFail(
      await explaining.add(makeTx({ nonce: 4n })),
      'INVALID',
      'Incoming transaction nonce 4 is lower than account nonce 5',
    );
    assert.equal(pool.size + explaining.size, 0);
  });

  it('replaces a same-nonce transaction only for at least minReplacementFeeDifference more fee, demoting it and what follows', async () => {
    const state = new NonceState();
    const pool = newPool(state);
    const removed: [string, string][] = [];
    pool.events.on('removed', ({ transaction, reason }) => removed.push([hex(transaction.id), reason]));
    const t0 = makeTx({ nonce: 0n, fee: 1000n });
    const t1 = makeTx({ nonce: 1n, fee: 1000n });
    const t2 = makeTx({ nonce: 2n, fee: 1000n });
    for (const tx of [t0, t1, t2]) expectOk(await pool.add(tx));
    await pool.reorganize();
    assert.deepEqual(processableIDs(pool)[0]![1], idsOf(t0, t1, t2));
    const tooCheap = makeTx({ nonce: 1n, fee: 1009n, params: Buffer.alloc(10, 1) });
    expectFail(
      await pool.add(tooCheap),
      'REPLACEMENT_FEE_TOO_LOW',
      'Incoming transaction fee is not sufficient to replace existing transaction',
    );
    const replacement = makeTx({ nonce: 1n, fee: 1010n, params: Buffer.alloc(10, 1) });
    expectOk(await pool.add(replacement));
    assert.deepEqual(removed, [[hex(transactionID(t1)), 'Transaction List executed remove']]);
    assert.ok(!pool.contains(transactionID(t1)));
    assert.deepEqual(processableIDs(pool)[0]![1], idsOf(t0));
    await pool.reorganize();
    assert.deepEqual(processableIDs(pool)[0]![1], idsOf(t0, replacement, t2));
  });

  it('per account: a nonce above the highest is refused when the list is full; a lower one pushes the highest out', async () => {
    const state = new NonceState();
    const pool = newPool(state, { maxTransactionsPerAccount: 3 });
    const removed: string[] = [];
    pool.events.on('removed', ({ transaction, reason }) => removed.push(`${transaction.transaction.nonce}:${reason}`));
    for (const nonce of [0n, 2n, 5n]) expectOk(await pool.add(makeTx({ nonce })));
    expectFail(
      await pool.add(makeTx({ nonce: 6n })),
      'ACCOUNT_LIMIT',
      'Incoming transaction exceeds maximum transaction limit per account',
    );
    expectOk(await pool.add(makeTx({ nonce: 1n })));
    assert.deepEqual(removed, ['5:Transaction List executed remove']);
    assert.deepEqual(
      pool.getAll().map((t) => t.transaction.nonce),
      [0n, 2n, 1n],
    );
    expectOk(await pool.add(makeTx({ sender: 1, nonce: 9n })));
  });
});

describe('transaction pool: a full pool', () => {
  // sizes are equal, so fee sets the priority order
  const tx = (sender: number, nonce: bigint, fee: bigint): TransactionObject => makeTx({ sender, nonce, fee });
  const priority = (t: TransactionObject): bigint => t.fee / BigInt(encodeTransaction(t).length);

  it('refuses a newcomer at or below the lowest priority while fewer than half are pending', async () => {
    const state = new NonceState();
    const pool = newPool(state, { maxTransactions: 4 });
    const held = [tx(0, 0n, 50_000n), tx(1, 0n, 40_000n), tx(2, 0n, 60_000n), tx(3, 1n, 70_000n)];
    for (const t of held) expectOk(await pool.add(t));
    const result = await pool.add(tx(4, 0n, 40_000n));
    expectFail(result, 'POOL_FULL', 'Rejecting transaction due to fee priority when the pool is full.');
    assert.ok(!result.ok);
    assert.equal(result.error.actual, priority(held[1]!).toString());
    assert.equal(result.error.expected, priority(held[1]!).toString());
    assert.equal(pool.size, 4);
  });

  it('evicts the lowest-priority pending transaction first, then the lowest-priority last processable one', async () => {
    const state = new NonceState();
    const pool = newPool(state, { maxTransactions: 4 });
    const removed: string[] = [];
    pool.events.on('removed', ({ transaction, reason }) => removed.push(`${hex(transaction.id)}:${reason}`));
    const a0 = tx(0, 0n, 50_000n);
    const b0 = tx(1, 0n, 40_000n);
    const c0 = tx(2, 0n, 60_000n);
    const c1 = tx(2, 1n, 30_000n);
    const d5 = tx(3, 5n, 70_000n); // pending: a gap after the account nonce
    for (const t of [a0, b0, c0, c1]) expectOk(await pool.add(t));
    await pool.reorganize();
    // full, no pending transaction: d5 outbids the lowest (c1) and the lowest last-processable (c1) goes
    expectOk(await pool.add(d5));
    assert.deepEqual(removed, [`${hex(transactionID(c1))}:Pool exceeded the size limit`]);
    // full with one pending (d5): a newcomer above the floor pushes out the pending one, though it pays more
    const e0 = tx(4, 0n, 45_000n);
    expectOk(await pool.add(e0));
    assert.equal(removed[1], `${hex(transactionID(d5))}:Pool exceeded the size limit`);
    // no pending left: the lowest last processable (b0) goes
    expectOk(await pool.add(tx(5, 0n, 55_000n)));
    assert.equal(removed[2], `${hex(transactionID(b0))}:Pool exceeded the size limit`);
    assert.deepEqual(
      new Set(pool.getAll().map((t) => hex(t.id))),
      new Set([...idsOf(a0, c0, e0), hex(transactionID(tx(5, 0n, 55_000n)))]),
    );
  });

  it('with half the pool pending, even a low-priority newcomer gets in by evicting the lowest pending one', async () => {
    const state = new NonceState();
    const pool = newPool(state, { maxTransactions: 4 });
    const low = tx(0, 3n, 20_000n);
    for (const t of [tx(1, 0n, 50_000n), tx(2, 0n, 50_000n), low, tx(3, 7n, 90_000n)]) expectOk(await pool.add(t));
    expectOk(await pool.add(tx(4, 0n, 10_000n)));
    assert.ok(!pool.contains(transactionID(low)));
    assert.equal(pool.size, 4);
  });

  it("keeps counting a replaced transaction's priority as the floor until the next remove(), as Klayr's heap does", async () => {
    const state = new NonceState();
    // the second time, the floor was already due for a rebuild (after a remove()) when the replacement came
    for (const removedFirst of [false, true]) {
      const pool = newPool(state, { maxTransactions: 3 });
      if (removedFirst) {
        expectOk(await pool.add(tx(9, 0n, 90_000n)));
        assert.ok(pool.remove(tx(9, 0n, 90_000n)));
      }
      for (const t of [tx(0, 0n, 20_000n), tx(1, 0n, 50_000n)]) expectOk(await pool.add(t));
      const replacement = tx(0, 0n, 40_000n);
      expectOk(await pool.add(replacement)); // the pool is not full: no eviction, so no rebuild
      expectOk(await pool.add(tx(2, 0n, 50_000n)));
      await pool.reorganize(); // the replacement, demoted on arrival, is processable again: nothing pending
      assert.deepEqual(
        [...pool.getProcessableTransactions().values()].map((l) => l.length),
        [1, 1, 1],
      );
      // full; the real minimum is the replacement's priority, yet the replaced one's still counts
      const between = tx(3, 0n, 30_000n);
      assert.ok(priority(between) < priority(replacement));
      expectOk(await pool.add(between));
      assert.ok(!pool.contains(transactionID(replacement)), 'evicted for a lower-priority newcomer');
      // that eviction went through remove(): the floor is the real minimum again
      expectFail(
        await pool.add(tx(4, 0n, 30_000n)),
        'POOL_FULL',
        'Rejecting transaction due to fee priority when the pool is full.',
      );
    }
  });
});

describe('transaction pool: removal, reorganization and expiry', () => {
  it('remove() by transaction or ID demotes what follows, emits nothing, and is false for an unknown transaction', async () => {
    const state = new NonceState();
    const pool = newPool(state);
    const removed: string[] = [];
    pool.events.on('removed', ({ transaction }) => removed.push(hex(transaction.id)));
    const [t0, t1, t2] = [0n, 1n, 2n].map((nonce) => makeTx({ nonce }));
    for (const t of [t0!, t1!, t2!]) expectOk(await pool.add(t));
    await pool.reorganize();
    assert.equal(pool.remove(t1!), true);
    assert.deepEqual(processableIDs(pool)[0]![1], idsOf(t0!));
    assert.equal(pool.remove(transactionID(t0!)), true);
    assert.equal(pool.remove(t0!), false);
    assert.deepEqual(processableIDs(pool), []);
    assert.equal(pool.remove(t2!), true);
    assert.equal(pool.size, 0);
    assert.deepEqual(removed, []);
  });

  it("reorganize drops an account's transactions from the first one the state calls INVALID", async () => {
    const state = new NonceState();
    const pool = newPool(state);
    const removed: [bigint, string][] = [];
    pool.events.on('removed', ({ transaction, reason }) => removed.push([transaction.transaction.nonce, reason]));
    const txs = [0n, 1n, 2n, 3n].map((nonce) => makeTx({ nonce }));
    for (const t of txs) expectOk(await pool.add(t));
    await pool.reorganize();
    // a block from elsewhere consumed nonce 0: the pooled nonce-0 transaction is now invalid
    state.advance(senderAddress(txs[0]!), 1n);
    const gap = makeTx({ nonce: 9n });
    expectOk(await pool.add(gap));
    // nothing is promotable (9 does not follow 3), so nothing is re-verified yet
    await pool.reorganize();
    assert.equal(pool.size, 5);
    expectOk(await pool.add(makeTx({ nonce: 4n })));
    await pool.reorganize();
    const reason = `Invalid transaction ${hex(transactionID(txs[0]!))}`;
    assert.deepEqual(
      removed,
      [0n, 1n, 2n, 3n, 4n].map((n) => [n, reason]),
    );
    assert.deepEqual(
      pool.getAll().map((t) => hex(t.id)),
      idsOf(gap),
    );
  });

  it('a verifier that throws during reorganize counts as INVALID; one that throws during add rejects the add', async () => {
    const state = new NonceState();
    let throwing = false;
    const pool = newPool(state, {
      verifyTransaction: async (c) => {
        if (throwing) throw new Error('state unavailable');
        return state.status(c.senderAddress, c.transaction.nonce, c.transaction.module);
      },
    });
    for (const nonce of [0n, 1n]) expectOk(await pool.add(makeTx({ nonce })));
    throwing = true;
    await assert.rejects(pool.add(makeTx({ nonce: 2n })), /state unavailable/);
    await pool.reorganize();
    assert.equal(pool.size, 0);
  });

  it("expires transactions older than transactionExpiryTime on the pool's clock; the jobs run on the scheduler and stop", async () => {
    const state = new NonceState();
    const scheduler = new ManualScheduler();
    let now = 1_000_000;
    const pool = newPool(state, {
      clock: () => now,
      transactionExpiryTime: 60_000,
      scheduler,
      expireInterval: 1000,
      reorganizeInterval: 10,
    });
    const reasons: string[] = [];
    pool.events.on('removed', ({ transaction, reason }) => reasons.push(`${transaction.transaction.nonce}:${reason}`));
    const old = makeTx({ nonce: 0n });
    expectOk(await pool.add(old));
    assert.equal(pool.get(transactionID(old))!.receivedAt, 1_000_000);
    now += 30_000;
    const young = makeTx({ nonce: 1n });
    expectOk(await pool.add(young));
    pool.start();
    assert.equal(scheduler.pending.size, 2);
    now += 30_000; // old is exactly at the limit: kept
    scheduler.runDue(1000);
    await nextTurn();
    assert.equal(pool.size, 2);
    now += 1;
    scheduler.runDue(1000);
    await nextTurn();
    assert.deepEqual(reasons, ['0:Transaction exceeded the expiry time']);
    assert.deepEqual(
      pool.getAll().map((t) => hex(t.id)),
      idsOf(young),
    );
    // the reorganize job promotes nothing here but runs and reschedules
    scheduler.runDue(10);
    await nextTurn();
    assert.equal(scheduler.pending.size, 2);
    pool.stop();
    assert.equal(scheduler.pending.size, 0);
    now += 100_000;
    assert.equal(pool.expire(), 1);
  });

  it('start() with the real timers promotes pending transactions, and stop() leaves no timer behind', async () => {
    const state = new NonceState();
    const pool = new TransactionPool({ verifyTransaction: state.verifier(), reorganizeInterval: 5 });
    for (const nonce of [0n, 1n, 2n]) expectOk(await pool.add(makeTx({ nonce })));
    pool.start();
    pool.start();
    const deadline = Date.now() + 2000;
    while (processableIDs(pool)[0]![1].length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    pool.stop();
    assert.equal(processableIDs(pool)[0]![1].length, 3);
  });
});

describe('transaction pool: concurrent adds', () => {
  it('many adds in flight, verified in any order, keep every index consistent', async () => {
    const rng = new Rng(7);
    const state = new NonceState();
    const waiting: (() => void)[] = [];
    const pool = newPool(state, {
      maxTransactions: 40,
      maxTransactionsPerAccount: 6,
      verifyTransaction: (c) =>
        new Promise<Verdict>((resolve) =>
          waiting.push(() => resolve(state.status(c.senderAddress, c.transaction.nonce, c.transaction.module))),
        ),
    });
    const txs: TransactionObject[] = [makeTx({ nonce: 0n })];
    const adds: Promise<AddResult>[] = [pool.add(txs[0]!)];
    assert.equal(pool.add(txs[0]!), adds[0], "a second add of an ID in flight shares the first one's result");
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 20; i++) {
        const t = makeTx({
          sender: rng.int(8),
          nonce: BigInt(rng.int(8)),
          fee: BigInt(20_000 + rng.int(100_000)),
          params: rng.bytes(rng.int(30)),
        });
        txs.push(t);
        adds.push(pool.add(t));
        if (rng.next() < 0.2) adds.push(pool.add(t)); // the same ID twice in flight
      }
      // settle a random half of the pending verifications, in random order
      for (let n = Math.ceil(waiting.length / 2); n > 0; n--) waiting.splice(rng.int(waiting.length), 1)[0]!();
      await nextTurn();
      const pooled = pool.getAll();
      if (pooled.length > 0 && rng.next() < 0.5) pool.remove(rng.pick(pooled).id);
      if (rng.next() < 0.5) void pool.reorganize();
      const processable = [...pool.getProcessableTransactions()];
      if (processable.length > 0 && rng.next() < 0.3) {
        // a block takes a sender's first processable transaction
        const [address, list] = rng.pick(processable);
        pool.remove(list[0]!.id);
        state.advance(Buffer.from(address, 'hex'), 1n);
      }
      checkInvariants(pool, 40, 6);
    }
    /** Answers every verification asked for until `work` settles. */
    const drain = async <T>(work: Promise<T>): Promise<T> => {
      let settled = false;
      const done = (): void => {
        settled = true;
      };
      work.then(done, done);
      while (!settled) {
        while (waiting.length > 0) waiting.shift()!();
        await nextTurn();
      }
      return work;
    };
    const results = await drain(Promise.all(adds));
    await drain(pool.reorganize());
    checkInvariants(pool, 40, 6);
    assert.ok(results.some((r) => r.ok && !r.duplicate));
    assert.ok(results.some((r) => !r.ok));
  });

  it('a reorganization that a removal overtook does not promote across the gap it left', async () => {
    const state = new NonceState();
    let hold = false;
    const held: (() => void)[] = [];
    const pool = newPool(state, {
      verifyTransaction: (c) => {
        const verdict = state.status(c.senderAddress, c.transaction.nonce, c.transaction.module);
        return hold ? new Promise<Verdict>((resolve) => held.push(() => resolve(verdict))) : verdict;
      },
    });
    const [t0, t1, t2] = [0n, 1n, 2n].map((nonce) => makeTx({ nonce }));
    for (const t of [t0!, t1!]) expectOk(await pool.add(t));
    await pool.reorganize();
    expectOk(await pool.add(t2!));
    hold = true;
    const pass = pool.reorganize();
    assert.equal(held.length, 3, 'processable 0, 1 and promotable 2 are re-verified');
    pool.remove(t1!);
    for (const release of held) release();
    await pass;
    assert.deepEqual(processableIDs(pool)[0]![1], idsOf(t0!));
    checkInvariants(pool, 4096, 64);
  });

  it('a batching verifier (the verify pool batcher) hands the verifier one batch per event-loop turn', async () => {
    const state = new NonceState();
    const batches: number[] = [];
    const verify = batching(async (candidates: readonly PoolCandidate[]) => {
      batches.push(candidates.length);
      return candidates.map((c) => state.status(c.senderAddress, c.transaction.nonce, c.transaction.module));
    }, 8);
    const pool = newPool(state, { verifyTransaction: verify });
    const txs = Array.from({ length: 20 }, (_, i) => makeTx({ sender: i % 4, nonce: BigInt(Math.floor(i / 4)) }));
    const results = await Promise.all(txs.map((t) => pool.add(t)));
    assert.ok(results.every((r) => r.ok));
    assert.deepEqual(batches, [8, 8, 4]);
    await pool.reorganize();
    assert.deepEqual(batches, [8, 8, 4, 8, 8, 4]);
    assert.deepEqual(
      [...pool.getProcessableTransactions().values()].map((l) => l.length),
      [5, 5, 5, 5],
    );
    const failing = batching(async () => [TransactionStatus.PROCESSABLE]);
    await assert.rejects(
      Promise.all([failing(prepareTransaction(txs[0]!)), failing(prepareTransaction(txs[1]!))]),
      /returned 1 results for 2 items/,
    );
  });
});

/** What must hold however adds, removals and reorganizations interleave. */
const checkInvariants = (pool: TransactionPool, maxTransactions: number, maxPerAccount: number): void => {
  const all = pool.getAll();
  const ids = all.map((t) => hex(t.id));
  assert.equal(new Set(ids).size, ids.length, 'an ID twice');
  assert.equal(pool.size, all.length);
  assert.ok(all.length <= maxTransactions, `pool holds ${all.length}`);
  const perSender = new Map<string, bigint[]>();
  for (const t of all) {
    assert.equal(hex(t.id), hex(transactionID(t.transaction)));
    assert.equal(pool.get(t.id), t);
    const key = hex(t.senderAddress);
    perSender.set(key, [...(perSender.get(key) ?? []), t.transaction.nonce]);
  }
  for (const [sender, nonces] of perSender) {
    assert.equal(new Set(nonces).size, nonces.length, `a nonce twice for ${sender}`);
    assert.ok(nonces.length <= maxPerAccount);
  }
  for (const [sender, txs] of pool.getProcessableTransactions()) {
    const nonces = perSender.get(sender)!.sort((a, b) => (a < b ? -1 : 1));
    assert.deepEqual(
      txs.map((t) => t.transaction.nonce),
      nonces.slice(0, txs.length),
      'processable are the lowest nonces',
    );
    txs.forEach((t, i) => {
      assert.equal(pool.get(t.id), t);
      if (i > 0) assert.equal(t.transaction.nonce, txs[i - 1]!.transaction.nonce + 1n);
    });
  }
};

/** Klayr's pool and Kestrel's, driven alike and compared after every step. */
class Differential {
  readonly state = new NonceState();
  /* eslint-disable-next-line @typescript-eslint/no-explicit-any */
  readonly klayr: any;
  readonly kestrel: TransactionPool;
  readonly klayrLog: string[] = [];
  readonly kestrelLog: string[] = [];
  readonly known = new Map<string, TransactionObject>();
  /** Every kind of outcome Kestrel's pool gave. */
  readonly outcomeKinds = new Set<string>();

  constructor(
    config: {
      maxTransactions: number;
      maxTransactionsPerAccount: number;
      minEntranceFeePriority: bigint;
      minReplacementFeeDifference: bigint;
      maxPayloadLength: number;
    },
    kestrelOverrides: Partial<TransactionPoolOptions> = {},
  ) {
    this.klayr = new klayrPool.TransactionPool({
      ...config,
      verifyTransaction: async (tx: { senderAddress: Buffer; nonce: bigint; module: string }) =>
        this.state.status(tx.senderAddress, tx.nonce, tx.module),
    });
    this.kestrel = newPool(this.state, { ...config, ...kestrelOverrides });
    this.klayr.events.on(klayrPool.events.EVENT_TRANSACTION_ADDED, (e: { transaction: { id: Buffer } }) =>
      this.klayrLog.push(`added ${hex(e.transaction.id)}`),
    );
    this.klayr.events.on(klayrPool.events.EVENT_TRANSACTION_REMOVED, (e: { id: Buffer; reason: string }) =>
      this.klayrLog.push(`removed ${hex(e.id)} ${e.reason}`),
    );
    this.kestrel.events.on('added', (e) => this.kestrelLog.push(`added ${hex(e.transaction.id)}`));
    this.kestrel.events.on('removed', (e) => this.kestrelLog.push(`removed ${hex(e.transaction.id)} ${e.reason}`));
  }

  klayrTx(tx: TransactionObject): unknown {
    return klayrChain.Transaction.fromBytes(encodeTransaction(tx));
  }

  /** Adds all at once on each side (interleaving their verifications), Klayr's first. */
  async add(txs: TransactionObject[], step: string): Promise<void> {
    for (const tx of txs) this.known.set(hex(transactionID(tx)), tx);
    const theirs: { status: number; error?: Error }[] = await Promise.all(
      txs.map((tx) => this.klayr.add(this.klayrTx(tx))),
    );
    const ours = await Promise.all(txs.map((tx) => this.kestrel.add(tx)));
    for (const r of ours) this.outcomeKinds.add(r.ok ? (r.duplicate ? 'duplicate' : 'ok') : r.error.code);
    assert.deepEqual(
      ours.map((r) => (r.ok ? 'ok' : `fail: ${r.error.message}`)),
      theirs.map((r) => (r.status === 1 ? 'ok' : `fail: ${r.error?.message}`)),
      `${step}: outcomes`,
    );
  }

  remove(tx: TransactionObject, step: string): void {
    assert.equal(this.kestrel.remove(tx), this.klayr.remove(this.klayrTx(tx)), `${step}: remove`);
  }

  async reorganize(): Promise<void> {
    await this.klayr._reorganize();
    await this.kestrel.reorganize();
  }

  /** The first `count` processable transactions of a sender go into a block. */
  includeInBlock(sender: Buffer, count: number, step: string): void {
    const processable = this.kestrel.getProcessableTransactions().get(hex(sender)) ?? [];
    const included = processable.slice(0, count);
    for (const t of included) this.remove(t.transaction, step);
    this.state.advance(sender, BigInt(included.length));
  }

  compare(step: string): void {
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const klayrAll = this.klayr.getAll().map((t: any) => `${hex(t.id)} ${t.feePriority}`);
    const klayrProcessable = [...this.klayr.getProcessableTransactions().entries()].map(
      ([address, txs]: [Buffer, any[]]) => [hex(address), txs.map((t) => hex(t.id))],
    );
    /* eslint-enable @typescript-eslint/no-explicit-any */
    assert.deepEqual(
      this.kestrel.getAll().map((t) => `${hex(t.id)} ${t.feePriority}`),
      klayrAll,
      `${step}: contents`,
    );
    assert.deepEqual(processableIDs(this.kestrel), klayrProcessable, `${step}: processable`);
    assert.deepEqual(this.kestrelLog, this.klayrLog, `${step}: events`);
  }
}

const SENDERS = 5;

/**
 * A random walk of adds (fresh, duplicate, replacement, stale nonce, invalid, oversized), removals,
 * blocks and reorganizations. `inOrder`: a sender's next transaction mostly follows its pooled ones,
 * so pools fill with processable transactions; otherwise nonces leave gaps and many wait.
 */
const runDifferential = async (seed: number, steps: number, diff: Differential, inOrder: boolean): Promise<void> => {
  const rng = new Rng(seed);
  const nextNonce = (sender: number, accountNonce: bigint): bigint => {
    const address = senderAddress(makeTx({ sender, nonce: 0n }));
    return diff.kestrel
      .getAll()
      .reduce(
        (next, t) => (t.senderAddress.equals(address) && t.transaction.nonce >= next ? t.transaction.nonce + 1n : next),
        accountNonce,
      );
  };
  const fresh = (): TransactionObject => {
    const sender = rng.int(SENDERS);
    const accountNonce = diff.state.nonceOf(senderAddress(makeTx({ sender, nonce: 0n })));
    const roll = rng.next();
    const nonce =
      roll < 0.05 && accountNonce > 0n
        ? accountNonce - 1n
        : inOrder && roll < 0.95
          ? nextNonce(sender, accountNonce)
          : accountNonce + BigInt(rng.int(7));
    const params = rng.bytes(rng.next() < 0.05 ? 60 + rng.int(20) : rng.int(30));
    const size = BigInt(encodeTransaction(makeTx({ sender, nonce, params })).length);
    // a fee of exactly priority * size + something below size: equal priorities are common
    const fee = BigInt(rng.int(7)) * size + BigInt(rng.int(Number(size)));
    return makeTx({ sender, nonce, fee, params, module: rng.next() < 0.03 ? 'bad' : 'token' });
  };
  const pooled = (): TransactionObject | undefined => {
    const all = diff.kestrel.getAll();
    return all.length === 0 ? undefined : rng.pick(all).transaction;
  };
  for (let step = 0; step < steps; step++) {
    const label = `seed ${seed} step ${step}`;
    const roll = rng.next();
    let batch: TransactionObject[] = [];
    if (roll < 0.45) batch = [fresh()];
    else if (roll < 0.55) {
      const n = 2 + rng.int(5);
      const ids = new Set<string>();
      // concurrent adds of distinct IDs (the same ID twice in flight is where the pools differ on purpose)
      for (let i = 0; i < n; i++) {
        const t = fresh();
        if (!ids.has(hex(transactionID(t)))) batch.push(t);
        ids.add(hex(transactionID(t)));
      }
    } else if (roll < 0.7) {
      const old = pooled();
      if (old !== undefined) {
        const delta = rng.pick([0n, 5n, 9n, 10n, 11n, 200n, 5000n]);
        batch = [{ ...old, fee: old.fee + delta, params: rng.bytes(rng.int(30)) }];
      }
    } else if (roll < 0.73) {
      const old = pooled() ?? [...diff.known.values()][0];
      if (old !== undefined) batch = [old];
    } else if (roll < 0.78) {
      const known = [...diff.known.values()];
      if (known.length > 0) batch = [rng.pick(known)]; // possibly removed before: re-added
    } else if (roll < 0.84) {
      const t = rng.next() < 0.8 ? pooled() : fresh();
      if (t !== undefined) diff.remove(t, label);
    } else if (roll < 0.92) {
      diff.includeInBlock(senderAddress(makeTx({ sender: rng.int(SENDERS), nonce: 0n })), 1 + rng.int(3), label);
    } else if (roll < 0.94) {
      // a block from elsewhere moved an account's nonce on
      diff.state.advance(senderAddress(makeTx({ sender: rng.int(SENDERS), nonce: 0n })), 1n);
    } else await diff.reorganize();
    if (batch.length > 0) await diff.add(batch, label);
    // as a node's 500 ms job would, between arrivals
    if (inOrder && rng.next() < 0.5) await diff.reorganize();
    diff.compare(label);
  }
};

/** The removal reasons in an event log, with IDs blanked. */
const removalReasons = (log: readonly string[]): string[] =>
  log
    .filter((line) => line.startsWith('removed '))
    .map((line) =>
      line
        .split(' ')
        .slice(2)
        .join(' ')
        .replace(/[0-9a-f]{64}/, '<id>'),
    );

describe('transaction pool against @klayr/transaction-pool (differential)', () => {
  const config = {
    maxTransactions: 12,
    maxTransactionsPerAccount: 4,
    minEntranceFeePriority: 1n,
    minReplacementFeeDifference: 10n,
    maxPayloadLength: 190,
  };

  it('the same random walks give the same outcomes, contents, processable lists and removal events', async () => {
    const outcomes = new Set<string>();
    const reasons = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const diff = new Differential(
        seed % 2 === 0
          ? config
          : { ...config, maxTransactions: 20, maxTransactionsPerAccount: 6, minEntranceFeePriority: 0n },
      );
      await runDifferential(seed, 700, diff, seed > 3);
      for (const kind of diff.outcomeKinds) outcomes.add(kind);
      for (const reason of removalReasons(diff.kestrelLog)) reasons.add(reason);
    }
    // the walk reached every rule
    assert.deepEqual([...outcomes].sort(), [
      'ACCOUNT_LIMIT',
      'FEE_PRIORITY_BELOW_MINIMUM',
      'INVALID',
      'POOL_FULL',
      'REPLACEMENT_FEE_TOO_LOW',
      'TOO_LARGE',
      'duplicate',
      'ok',
    ]);
    assert.deepEqual([...reasons].sort(), [
      'Invalid transaction <id>',
      'Pool exceeded the size limit',
      'Transaction List executed remove',
    ]);
  });

  it('the comparison catches a pool that differs in one rule', async () => {
    const diff = new Differential(config, { minReplacementFeeDifference: 11n });
    await assert.rejects(runDifferential(1, 700, diff, false), assert.AssertionError);
  });
});

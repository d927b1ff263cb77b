import { EventEmitter } from 'node:events';
import { asPrepared } from '../../lib/transaction/prepared.js';
import type { TransactionObject } from '../../lib/transaction/schema.js';
import { transactionID } from '../../lib/transaction/transaction.js';
import { AccountTransactions } from './account_list.js';
import { computeFeePriority } from './candidate.js';
import type { ResolvedPoolOptions, TransactionPoolOptions } from './config.js';
import { resolvePoolOptions } from './config.js';
import { invalidTransactionReason, REMOVAL_REASON } from './constants.js';
import type { RejectionCode, TransactionPoolErrorDetails } from './errors.js';
import { REJECTION, REJECTION_MESSAGE, TransactionPoolError, tooLargeMessage } from './errors.js';
import { FeePriorityFloor } from './fee_floor.js';
import { PeriodicJob } from './periodic_job.js';
import type { AddResult, PoolCandidate, PoolEventMap, PooledTransaction, Verdict } from './types.js';
import { TransactionStatus, verdictMessage, verdictStatus } from './types.js';

const mapKey = (bytes: Buffer): string => bytes.toString('latin1');

const fail = (code: RejectionCode, message: string, id: Buffer, details?: TransactionPoolErrorDetails): AddResult => ({
  ok: false,
  error: new TransactionPoolError(code, message, id, details),
});

const ADDED: AddResult = { ok: true, duplicate: false };
const DUPLICATE: AddResult = { ok: true, duplicate: true };

interface ReorganizationPlan {
  readonly list: AccountTransactions;
  readonly processable: readonly PooledTransaction[];
  readonly promotable: readonly PooledTransaction[];
  readonly statuses: Promise<TransactionStatus[]>;
}

/**
 * Kestrel's transaction pool, rule for rule @klayr/transaction-pool's TransactionPool.
 *
 * Every change to its indexes is synchronous. `add` checks admission at once, awaits the
 * verifier, then commits against the pool as it is by then, so any number of adds may be in
 * flight (a second add of an ID already in flight shares the first one's result). Callers that
 * verify in bulk themselves use `addVerified`.
 */
export class TransactionPool {
  /** 'added' and 'removed'; 'removed' covers the pool's own removals (eviction, replacement, expiry, invalidity), not `remove()`. */
  readonly events = new EventEmitter<PoolEventMap>();
  readonly #options: ResolvedPoolOptions;
  /** By ID, in the order added (Klayr's iteration order). */
  readonly #entries = new Map<string, PooledTransaction>();
  /** By sender address, in the order first seen since the account last emptied. */
  readonly #accounts = new Map<string, AccountTransactions>();
  readonly #inFlight = new Map<string, Promise<AddResult>>();
  readonly #floor: FeePriorityFloor;
  readonly #reorganizeJob: PeriodicJob;
  readonly #expireJob: PeriodicJob;
  #reorganizing: Promise<void> | undefined;

  constructor(options: TransactionPoolOptions) {
    this.#options = resolvePoolOptions(options);
    const { scheduler, onJobError } = this.#options;
    this.#floor = new FeePriorityFloor(() => Array.from(this.#entries.values(), (e) => e.feePriority));
    this.#reorganizeJob = new PeriodicJob(
      () => this.reorganize(),
      this.#options.reorganizeInterval,
      scheduler,
      onJobError,
    );
    this.#expireJob = new PeriodicJob(async () => this.expire(), this.#options.expireInterval, scheduler, onJobError);
  }

  /** Starts the periodic promotion of pending transactions and the expiry sweep. */
  start(): void {
    this.#reorganizeJob.start();
    this.#expireJob.start();
  }

  stop(): void {
    this.#reorganizeJob.stop();
    this.#expireJob.stop();
  }

  get size(): number {
    return this.#entries.size;
  }

  getAll(): PooledTransaction[] {
    return [...this.#entries.values()];
  }

  get(id: Buffer): PooledTransaction | undefined {
    return this.#entries.get(mapKey(id));
  }

  contains(id: Buffer): boolean {
    return this.#entries.has(mapKey(id));
  }

  /** Per sender (address hex), its processable transactions in nonce order; senders with none are left out. */
  getProcessableTransactions(): Map<string, PooledTransaction[]> {
    const result = new Map<string, PooledTransaction[]>();
    for (const list of this.#accounts.values()) {
      const processable = list.getProcessable();
      if (processable.length > 0) result.set(list.address.toString('hex'), processable);
    }
    return result;
  }

  add(input: TransactionObject | PoolCandidate): Promise<AddResult> {
    const candidate = asPrepared(input);
    const key = mapKey(candidate.id);
    const inFlight = this.#inFlight.get(key);
    if (inFlight !== undefined) return inFlight;
    const admission = this.#admit(candidate);
    if (typeof admission !== 'bigint') return Promise.resolve(admission);
    const pending = this.#verifyThenCommit(candidate, admission).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, pending);
    return pending;
  }

  /** `add` for a candidate already verified against the committed state, e.g. in a batch. */
  addVerified(input: TransactionObject | PoolCandidate, verdict: Verdict): AddResult {
    const candidate = asPrepared(input);
    const admission = this.#admit(candidate);
    return typeof admission === 'bigint' ? this.#commit(candidate, admission, verdict) : admission;
  }

  /** Takes a transaction (or its ID) out; false when it is not in the pool. Emits no event. */
  remove(target: TransactionObject | Buffer): boolean {
    const id = Buffer.isBuffer(target) ? target : transactionID(target);
    const key = mapKey(id);
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    const accountKey = mapKey(entry.senderAddress);
    const list = this.#accounts.get(accountKey);
    if (list === undefined) throw new Error(`Pooled transaction ${id.toString('hex')} has no account list.`);
    list.remove(entry.transaction.nonce);
    if (list.size === 0) this.#accounts.delete(accountKey);
    this.#floor.rebuilt();
    return true;
  }

  /**
   * Klayr's _reorganize: for each sender with transactions that could follow its processable
   * ones, re-verifies processable + promotable in nonce order; promotes the promotable ones up to
   * the first break (INVALID, or a pending one not right after a successful one), and removes
   * everything from an INVALID one's nonce on. All verifications of one pass are started at once,
   * so a batching verifier sees them together. Concurrent calls share one pass.
   */
  reorganize(): Promise<void> {
    this.#reorganizing ??= this.#reorganizeOnce().finally(() => {
      this.#reorganizing = undefined;
    });
    return this.#reorganizing;
  }

  /** Removes the transactions held longer than transactionExpiryTime; returns how many. */
  expire(): number {
    const now = this.#options.clock();
    let expired = 0;
    for (const entry of [...this.#entries.values()]) {
      if (
        Math.abs(now - entry.receivedAt) > this.#options.transactionExpiryTime &&
        this.#removeWithReason(entry, REMOVAL_REASON.expired)
      ) {
        expired += 1;
      }
    }
    return expired;
  }

  /** The fee priority when the candidate may go on to verification, else the result. */
  #admit(candidate: PoolCandidate): bigint | AddResult {
    const { maxPayloadLength, maxTransactions, minEntranceFeePriority } = this.#options;
    if (candidate.bytes.length > maxPayloadLength)
      return fail(REJECTION.tooLarge, tooLargeMessage(maxPayloadLength), candidate.id);
    if (this.#entries.has(mapKey(candidate.id))) return DUPLICATE;
    const feePriority = computeFeePriority(candidate, this.#options.minFee(candidate));
    if (feePriority < minEntranceFeePriority) {
      return fail(REJECTION.feePriorityBelowMinimum, REJECTION_MESSAGE.feePriorityBelowMinimum, candidate.id, {
        dataPath: '.fee',
        actual: feePriority.toString(),
        expected: minEntranceFeePriority.toString(),
      });
    }
    if (this.#entries.size >= maxTransactions) {
      const lowest = this.#floor.lowest();
      if (lowest !== undefined && feePriority <= lowest) {
        // With half the pool or more waiting on nonces, a pending transaction makes room even for a low-priority newcomer.
        if (this.#unprocessableCount() >= Math.floor(maxTransactions / 2)) this.#evictUnprocessable();
        else {
          return fail(REJECTION.poolFull, REJECTION_MESSAGE.poolFull, candidate.id, {
            dataPath: '.fee',
            actual: feePriority.toString(),
            expected: lowest.toString(),
          });
        }
      }
    }
    return feePriority;
  }

  async #verifyThenCommit(candidate: PoolCandidate, feePriority: bigint): Promise<AddResult> {
    const verdict = await this.#options.verifyTransaction(candidate);
    return this.#commit(candidate, feePriority, verdict);
  }

  #commit(candidate: PoolCandidate, feePriority: bigint, verdict: Verdict): AddResult {
    const key = mapKey(candidate.id);
    // Another add of the same ID may have committed while this one was being verified.
    if (this.#entries.has(key)) return DUPLICATE;
    const status = verdictStatus(verdict);
    if (status === TransactionStatus.INVALID)
      return fail(REJECTION.invalid, verdictMessage(verdict) ?? REJECTION_MESSAGE.invalid, candidate.id);
    if (this.#entries.size >= this.#options.maxTransactions && !this.#evictUnprocessable()) this.#evictProcessable();

    const accountKey = mapKey(candidate.senderAddress);
    let list = this.#accounts.get(accountKey);
    if (list === undefined) {
      list = new AccountTransactions(
        candidate.senderAddress,
        this.#options.maxTransactionsPerAccount,
        this.#options.minReplacementFeeDifference,
      );
      this.#accounts.set(accountKey, list);
    }
    const { transaction, bytes, id, senderAddress } = candidate;
    const entry: PooledTransaction = {
      transaction,
      bytes,
      id,
      senderAddress,
      feePriority,
      receivedAt: this.#options.clock(),
    };
    const outcome = list.add(entry, status === TransactionStatus.PROCESSABLE);
    if (!outcome.added) {
      if (list.size === 0) this.#accounts.delete(accountKey);
      return fail(REJECTION[outcome.reason], REJECTION_MESSAGE[outcome.reason], candidate.id);
    }
    if (outcome.removed !== undefined) {
      this.#entries.delete(mapKey(outcome.removed.id));
      this.#floor.droppedWithoutRebuild(outcome.removed.feePriority);
      this.events.emit('removed', { transaction: outcome.removed, reason: REMOVAL_REASON.replacedOrAccountLimit });
    }
    this.#entries.set(key, entry);
    this.#floor.added(feePriority);
    this.events.emit('added', { transaction: entry });
    return ADDED;
  }

  #unprocessableCount(): number {
    let count = 0;
    for (const list of this.#accounts.values()) count += list.unprocessableCount;
    return count;
  }

  /** The lowest-priority pending transaction; on ties, the first in sender order, then nonce order (as Klayr's heap pops). */
  #evictUnprocessable(): boolean {
    let victim: PooledTransaction | undefined;
    for (const list of this.#accounts.values()) {
      for (const entry of list.getUnprocessable()) {
        if (victim === undefined || entry.feePriority < victim.feePriority) victim = entry;
      }
    }
    return victim !== undefined && this.#removeWithReason(victim, REMOVAL_REASON.poolFull);
  }

  /** Among each sender's last processable transaction, the lowest-priority one (first sender on ties). */
  #evictProcessable(): boolean {
    let victim: PooledTransaction | undefined;
    for (const list of this.#accounts.values()) {
      const processable = list.getProcessable();
      const last = processable[processable.length - 1];
      if (last !== undefined && (victim === undefined || last.feePriority < victim.feePriority)) victim = last;
    }
    return victim !== undefined && this.#removeWithReason(victim, REMOVAL_REASON.poolFull);
  }

  #removeWithReason(entry: PooledTransaction, reason: string): boolean {
    if (!this.remove(entry.id)) return false;
    this.events.emit('removed', { transaction: entry, reason });
    return true;
  }

  async #reorganizeOnce(): Promise<void> {
    const plans: ReorganizationPlan[] = [];
    for (const list of this.#accounts.values()) {
      const promotable = list.getPromotable();
      if (promotable.length === 0) continue;
      const processable = list.getProcessable();
      const statuses = Promise.all([...processable, ...promotable].map((entry) => this.#statusOf(entry)));
      plans.push({ list, processable, promotable, statuses });
    }
    for (const plan of plans) this.#applyReorganization(plan, await plan.statuses);
  }

  /** A verifier that throws counts as INVALID, as in Klayr. */
  async #statusOf(entry: PooledTransaction): Promise<TransactionStatus> {
    try {
      return verdictStatus(await this.#options.verifyTransaction(entry));
    } catch {
      return TransactionStatus.INVALID;
    }
  }

  #applyReorganization(plan: ReorganizationPlan, statuses: readonly TransactionStatus[]): void {
    const all = [...plan.processable, ...plan.promotable];
    const successful = new Set<PooledTransaction>();
    let invalid: PooledTransaction | undefined;
    for (const [i, entry] of all.entries()) {
      const status = statuses[i];
      if (status === TransactionStatus.INVALID) {
        invalid = entry;
        break;
      }
      if (
        status === TransactionStatus.UNPROCESSABLE &&
        (successful.size === 0 || all[i - 1].transaction.nonce + 1n !== entry.transaction.nonce)
      )
        break;
      successful.add(entry);
    }
    // Promote only onto the processable run that was verified; a pool changed meanwhile is left to the next pass.
    const current = plan.list.getProcessable();
    if (current.length === plan.processable.length && current.every((entry, i) => entry === plan.processable[i])) {
      plan.list.promote(plan.promotable.filter((entry) => successful.has(entry)));
    }
    if (invalid === undefined) return;
    const reason = invalidTransactionReason(invalid.id);
    for (const entry of all) {
      if (entry.transaction.nonce >= invalid.transaction.nonce) this.#removeWithReason(entry, reason);
    }
  }
}

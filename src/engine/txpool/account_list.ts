import type { PooledTransaction } from './types.js';

export type ListAddOutcome =
  | { readonly added: true; readonly removed?: PooledTransaction }
  | { readonly added: false; readonly reason: 'replacementFeeTooLow' | 'accountLimit' };

const ascending = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One sender's pooled transactions, by nonce (Klayr's TransactionList). The processable ones are
 * a run of nonces the state accepts in order; Klayr slices "the lowest |processable| nonces"
 * off the nonce-sorted list to find the rest, and so does this.
 */
export class AccountTransactions {
  readonly #byNonce = new Map<bigint, PooledTransaction>();
  /** Every nonce held, ascending. */
  readonly #nonces: bigint[] = [];
  /** Processable nonces, ascending. */
  #processable: bigint[] = [];

  constructor(
    readonly address: Buffer,
    private readonly maxSize: number,
    private readonly minReplacementFeeDifference: bigint,
  ) {}

  get size(): number {
    return this.#nonces.length;
  }

  get unprocessableCount(): number {
    return this.#nonces.length - this.#processable.length;
  }

  get(nonce: bigint): PooledTransaction | undefined {
    return this.#byNonce.get(nonce);
  }

  /**
   * Replaces a same-nonce transaction when the fee grows by the minimum difference (demoting it
   * and everything after); when full, makes room by dropping the highest nonce unless the
   * incoming nonce is higher still. `processable` only counts while no other one is processable:
   * later ones wait for promotion, as in Klayr.
   */
  add(entry: PooledTransaction, processable: boolean): ListAddOutcome {
    const { nonce, fee } = entry.transaction;
    const existing = this.#byNonce.get(nonce);
    if (existing !== undefined) {
      if (fee < existing.transaction.fee + this.minReplacementFeeDifference)
        return { added: false, reason: 'replacementFeeTooLow' };
      this.#demoteFrom(nonce);
      this.#byNonce.set(nonce, entry);
      return { added: true, removed: existing };
    }
    let removed: PooledTransaction | undefined;
    if (this.#nonces.length >= this.maxSize) {
      const highest = this.#nonces[this.#nonces.length - 1];
      if (nonce > highest) return { added: false, reason: 'accountLimit' };
      removed = this.remove(highest);
    }
    this.#byNonce.set(nonce, entry);
    this.#nonces.splice(this.#insertionIndex(nonce), 0, nonce);
    if (processable && this.#processable.length === 0) this.#processable.push(nonce);
    return removed === undefined ? { added: true } : { added: true, removed };
  }

  /** Drops the transaction at `nonce`; every processable one from that nonce on is demoted. */
  remove(nonce: bigint): PooledTransaction | undefined {
    const entry = this.#byNonce.get(nonce);
    if (entry === undefined) return undefined;
    this.#byNonce.delete(nonce);
    this.#nonces.splice(this.#insertionIndex(nonce), 1);
    this.#demoteFrom(nonce);
    return entry;
  }

  /** Marks these as processable, all or none: none when any is no longer the one held at its nonce. */
  promote(entries: readonly PooledTransaction[]): boolean {
    if (entries.some((e) => this.#byNonce.get(e.transaction.nonce) !== e)) return false;
    const merged = new Set([...this.#processable, ...entries.map((e) => e.transaction.nonce)]);
    this.#processable = [...merged].sort(ascending);
    return true;
  }

  getProcessable(): PooledTransaction[] {
    return this.#processable.map((n) => this.#held(n));
  }

  getUnprocessable(): PooledTransaction[] {
    return this.#nonces.slice(this.#processable.length).map((n) => this.#held(n));
  }

  /** The consecutive run right after the processable ones (from the lowest nonce when none is). */
  getPromotable(): PooledTransaction[] {
    const rest = this.#nonces.slice(this.#processable.length);
    const first = rest[0];
    if (first === undefined) return [];
    const lastProcessable = this.#processable[this.#processable.length - 1];
    if (lastProcessable !== undefined && first !== lastProcessable + 1n) return [];
    let run = 1;
    while (run < rest.length && rest[run] === rest[run - 1] + 1n) run += 1;
    return rest.slice(0, run).map((n) => this.#held(n));
  }

  #held(nonce: bigint): PooledTransaction {
    const entry = this.#byNonce.get(nonce);
    if (entry === undefined) throw new Error(`No pooled transaction is held at nonce ${nonce}.`);
    return entry;
  }

  #demoteFrom(nonce: bigint): void {
    this.#processable = this.#processable.filter((n) => n < nonce);
  }

  /** Index of `nonce` in the sorted nonces, or where it would go. */
  #insertionIndex(nonce: bigint): number {
    let low = 0;
    let high = this.#nonces.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#nonces[mid] < nonce) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * Uncommitted state changes over a read function, with nested snapshots.
 * Changes are recorded in an undo journal, so taking a snapshot is O(1) and
 * restoring one undoes exactly the changes made since (a failed transaction's writes).
 */
export type Reader = (key: Buffer) => Buffer | undefined;

const DELETED = null;
type Slot = Buffer | typeof DELETED;

// Keys are held as latin1 strings, which order as their bytes do and compare faster than Buffers.
const byKeyString = (a: [string, unknown], b: [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export class StateOverlay {
  readonly #changes = new Map<string, Slot>();
  /** The undo journal as two parallel arrays (key, previous slot): no object per write for the collector to carry. */
  readonly #journalKeys: string[] = [];
  readonly #journalPrevious: (Slot | undefined)[] = [];
  /**
   * Off until the first snapshot: no restore can reach behind the first snapshot, so the writes
   * before it need no undo entry (a genesis block's 150,000 writes on the mainnet take none).
   */
  #journaling = false;
  /** With `rememberBase`: what each key read so far holds in the base (null: absent there). */
  readonly #baseReads = new Map<string, Slot>();

  /**
   * `rememberBase`: keep every value read from the base, so that a key read again (a block's
   * transactions read the same accounts and stores over and over) or asked for its previous value
   * when the block is rooted is not read from the base again. The base must not change meanwhile.
   */
  constructor(
    private readonly base: Reader,
    private readonly rememberBase = false,
  ) {}

  get(key: Buffer): Buffer | undefined {
    // verification reads through overlays that never change: no key string to build for them
    if (this.#changes.size === 0 && !this.rememberBase) return this.base(key);
    const k = key.toString('latin1');
    const slot = this.#changes.get(k);
    if (slot === DELETED) return undefined;
    return slot ?? this.#readBase(k, key);
  }

  /** The base's value of `key` (the value before this overlay's changes). */
  baseValue(key: Buffer): Buffer | undefined {
    return this.rememberBase ? this.#readBase(key.toString('latin1'), key) : this.base(key);
  }

  #readBase(k: string, key: Buffer): Buffer | undefined {
    if (!this.rememberBase) return this.base(key);
    const known = this.#baseReads.get(k);
    if (known !== undefined) return known ?? undefined;
    const value = this.base(key);
    this.#baseReads.set(k, value ?? DELETED);
    return value;
  }

  has(key: Buffer): boolean {
    return this.get(key) !== undefined;
  }

  set(key: Buffer, value: Buffer): void {
    if (!(value instanceof Uint8Array)) throw new TypeError('State values must be bytes');
    this.#write(key.toString('latin1'), Buffer.from(value));
  }

  /** set without the copy: `value` must be a Buffer nothing else holds or changes (StateReadWriter.setOwned). */
  setOwned(key: Buffer, value: Buffer): void {
    if (!Buffer.isBuffer(value)) throw new TypeError('State values must be bytes');
    this.#write(key.toString('latin1'), value);
  }

  del(key: Buffer): void {
    this.#write(key.toString('latin1'), DELETED);
  }

  #write(k: string, slot: Slot): void {
    if (this.#journaling) {
      this.#journalKeys.push(k);
      this.#journalPrevious.push(this.#changes.get(k));
    }
    this.#changes.set(k, slot);
  }

  /** An id to restore to; snapshots nest. */
  snapshot(): number {
    this.#journaling = true;
    return this.#journalKeys.length;
  }

  restoreSnapshot(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id > this.#journalKeys.length) throw new Error(`Invalid snapshot id ${id}`);
    // 0 before any snapshot: every change undone
    if (!this.#journaling) {
      this.#changes.clear();
      return;
    }
    for (let i = this.#journalKeys.length - 1; i >= id; i--) {
      const key = this.#journalKeys[i];
      const previous = this.#journalPrevious[i];
      if (previous === undefined) this.#changes.delete(key);
      else this.#changes.set(key, previous);
    }
    this.#journalKeys.length = id;
    this.#journalPrevious.length = id;
  }

  /** Changed keys with their final value (undefined = deleted), sorted by key. */
  changes(): { key: Buffer; value: Buffer | undefined }[] {
    return [...this.#changes]
      .sort(byKeyString)
      .map(([k, slot]) => ({ key: Buffer.from(k, 'latin1'), value: slot === DELETED ? undefined : slot }));
  }

  /** Whether a key in [gte, lte] was changed (set or deleted). */
  changesWithin(gte: Buffer, lte: Buffer): boolean {
    if (this.#changes.size === 0) return false;
    const from = gte.toString('latin1');
    const to = lte.toString('latin1');
    for (const k of this.#changes.keys()) if (k >= from && k <= to) return true;
    return false;
  }

  /** Overlay entries in [gte, lte] merged into the base entries of the same range. */
  mergeRange(
    base: Iterable<{ key: Buffer; value: Buffer }>,
    gte: Buffer,
    lte: Buffer,
  ): { key: Buffer; value: Buffer }[] {
    const merged = new Map<string, Buffer>();
    for (const { key, value } of base) merged.set(key.toString('latin1'), value);
    const from = gte.toString('latin1');
    const to = lte.toString('latin1');
    for (const [k, slot] of this.#changes) {
      if (k < from || k > to) continue;
      if (slot === DELETED) merged.delete(k);
      else merged.set(k, slot);
    }
    return [...merged].sort(byKeyString).map(([k, value]) => ({ key: Buffer.from(k, 'latin1'), value }));
  }
}

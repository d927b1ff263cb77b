import type { Database, RootDatabase } from 'lmdb';
import type { PendingEntry, StringRange } from './pending_layer.js';
import { inStringRange, keyString, PendingLayer } from './pending_layer.js';
import { pendingReadOverrides, registerPendingReads } from './pending_reads.js';
import type { DatabaseName } from './tables.js';
import { DATABASE_NAMES } from './tables.js';

type BinaryDB = Database<Buffer, Buffer>;
type Databases = { readonly root: RootDatabase<Buffer, Buffer> } & { readonly [name in DatabaseName]: BinaryDB };

/** How pending write sets reach LMDB. */
export interface WriteBehindOptions {
  /**
   * 'batch' (default): one lmdb-js asynchronous batch per flush, committed (and synced) by
   * lmdb-js's write thread, so the B-tree work leaves the main thread. 'transaction': one
   * synchronous transaction per flush on the main thread, started once `flushEvery` sets wait.
   */
  flushWith?: 'batch' | 'transaction';
  /** Sets gathered before a flush starts (default: 10 with 'batch', 25 with 'transaction'); drain() and room() flush any. */
  flushEvery?: number;
  /** At most this many sets (blocks) pending before `room()` waits for a flush (default 100). */
  maxSets?: number;
  /** At most this many bytes of keys and values pending before `room()` waits (default 256 MiB). */
  maxBytes?: number;
}

/** One commit's writes, the last per key of each database (what one transaction would have left). */
type SetWrites = Map<DatabaseName, Map<string, PendingEntry>>;
/** A recorded set's writes as listeners see them: by database, by key (keyString). */
export type RecordedWrites = ReadonlyMap<DatabaseName, ReadonlyMap<string, PendingEntry>>;
interface WriteSet {
  readonly seq: number;
  readonly writes: SetWrites;
  readonly bytes: number;
}

export interface WriteBehindStats {
  /** Flushes committed. */
  readonly flushes: number;
  /** Write sets committed through them. */
  readonly sets: number;
  /** Sets recorded and not yet committed to LMDB. */
  readonly pendingSets: number;
  readonly pendingBytes: number;
}

const DEFAULTS = { flushWith: 'batch', maxSets: 100, maxBytes: 256 * 1024 * 1024 } as const;

const writeSize = (entry: PendingEntry): number => entry.key.length + (entry.value?.length ?? 0);

/**
 * The write-behind mode of one LMDB environment (block synchronization): while it is on, each
 * commit (commitWrites) records its writes as one set in memory instead of a synchronous
 * transaction, and every read of the environment's named databases sees them at once (point and
 * range reads are answered through this layer: install() wraps the databases' read and write
 * methods). Sets reach LMDB in the background, in order, every set pending when a flush starts
 * in that flush's one transaction, never part of a set: a crash leaves LMDB at the end of some
 * set, a prefix of what was committed. A set leaves the layer only when its flush has committed.
 */
export class WriteBehind {
  readonly #dbs: Databases;
  readonly #options: Required<Omit<WriteBehindOptions, 'flushEvery'>> & Pick<WriteBehindOptions, 'flushEvery'>;
  readonly #layers = new Map<DatabaseName, PendingLayer>(DATABASE_NAMES.map((name) => [name, new PendingLayer()]));
  readonly #names = new Map<BinaryDB, DatabaseName>();
  readonly #onFlushed: () => void;
  /** Recorded, waiting for a flush. */
  #queued: WriteSet[] = [];
  /** In the flush running. */
  #inFlight: WriteSet[] = [];
  #pendingBytes = 0;
  /** The set being recorded (inside commitWrites), read before the layers. */
  #recording: SetWrites | undefined;
  #seq = 0;
  #users = 0;
  #flushing: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;
  #flushes = 0;
  #flushedSets = 0;
  readonly #flushListeners = new Set<(lastSet: number) => void>();
  readonly #recordListeners = new Set<(set: number, writes: RecordedWrites) => void>();
  /** Callbacks to run once LMDB holds exactly the set `seq` (a flush ends at it), oldest first. */
  #stored: { seq: number; callback: () => void }[] = [];

  /** `onFlushed` runs right after each flush commits (the node's held read transaction is renewed there). */
  constructor(dbs: Databases, onFlushed: () => void, options: WriteBehindOptions = {}) {
    this.#dbs = dbs;
    this.#onFlushed = onFlushed;
    this.#options = { ...DEFAULTS };
    this.#configure(options);
    for (const name of DATABASE_NAMES) this.#names.set(dbs[name], name);
  }

  /** Turns the mode on (nested calls count: it ends with the last end()). */
  begin(options?: WriteBehindOptions): void {
    if (options !== undefined && this.#users === 0) this.#configure(options);
    this.#users++;
  }

  #configure(options: WriteBehindOptions): void {
    for (const [name, value] of Object.entries(options)) {
      if (value !== undefined) Object.assign(this.#options, { [name]: value });
    }
  }

  /** Turns the mode off once every begin() has ended; resolves when every pending set is in LMDB. */
  async end(): Promise<void> {
    if (this.#users > 0) this.#users--;
    await this.drain();
  }

  get active(): boolean {
    return this.#users > 0;
  }

  /** Whether a commit must be recorded: the mode is on, or sets still wait (a direct transaction would overtake them). */
  get recordsCommits(): boolean {
    return this.#users > 0 || this.pendingSets > 0;
  }

  get pendingSets(): number {
    return this.#queued.length + this.#inFlight.length;
  }

  stats(): WriteBehindStats {
    return {
      flushes: this.#flushes,
      sets: this.#flushedSets,
      pendingSets: this.pendingSets,
      pendingBytes: this.#pendingBytes,
    };
  }

  /**
   * Runs `writes` (a commit's callbacks) recording their puts and removes as one set: all of
   * them, or none when it throws (as an aborted transaction). Throws a failed flush's error.
   */
  record(writes: () => void): void {
    if (this.#failure !== undefined) throw this.#failure.error;
    if (this.#recording !== undefined) {
      writes();
      return;
    }
    const recording: SetWrites = new Map();
    this.#recording = recording;
    try {
      writes();
    } finally {
      this.#recording = undefined;
    }
    const seq = ++this.#seq;
    let bytes = 0;
    for (const [name, entries] of recording) {
      const layer = this.#layer(name);
      for (const [key, entry] of entries) {
        layer.write(key, entry, seq);
        bytes += writeSize(entry);
      }
    }
    this.#queued.push({ seq, writes: recording, bytes });
    this.#pendingBytes += bytes;
    for (const listener of this.#recordListeners) listener(seq, recording);
    if (this.#queued.length >= this.#flushEvery()) this.#startFlush();
  }

  /**
   * Runs `callback` when LMDB holds exactly what has been committed so far: at once when nothing
   * is pending, else right after the flush that ends with the last set recorded now (a flush ends
   * there), before the next flush starts: a read transaction it opens pins that state.
   */
  whenStored(callback: () => void): void {
    if (this.pendingSets === 0) {
      callback();
      return;
    }
    this.#stored.push({ seq: this.#seq, callback });
    this.#startFlush();
  }

  /**
   * Calls `listener` after each flush has committed, with the number of the last set it wrote (what
   * LMDB holds then is read with an explicit read transaction).
   */
  onFlush(listener: (lastSet: number) => void): () => void {
    this.#flushListeners.add(listener);
    return () => this.#flushListeners.delete(listener);
  }

  /** The sets recorded and not yet flushed (in flight, then queued), oldest first. */
  recordedSets(): { set: number; writes: RecordedWrites }[] {
    return [...this.#inFlight, ...this.#queued].map(({ seq, writes }) => ({ set: seq, writes }));
  }

  /** Calls `listener` with each set recorded (numbered from 1, in order), before any flush writes it. */
  onRecord(listener: (set: number, writes: RecordedWrites) => void): () => void {
    this.#recordListeners.add(listener);
    return () => this.#recordListeners.delete(listener);
  }

  /** Waits while more sets or bytes are pending than allowed (call between commits). */
  async room(): Promise<void> {
    const { maxSets, maxBytes } = this.#options;
    while (this.#failure === undefined && (this.pendingSets > maxSets || this.#pendingBytes > maxBytes)) {
      this.#startFlush();
      await this.#flushing;
    }
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  /** Resolves when every pending set is in LMDB (rejects with a failed flush's error). */
  async drain(): Promise<void> {
    while (this.#failure === undefined && this.pendingSets > 0) {
      this.#startFlush();
      await this.#flushing;
    }
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  /** The pending write of `key` in `name`: undefined when LMDB has its latest value. */
  lookup(name: DatabaseName, key: Buffer): PendingEntry | undefined {
    if (this.#recording === undefined && this.#pendingBytes === 0) return undefined;
    const k = keyString(key);
    return this.#recording?.get(name)?.get(k) ?? this.#layer(name).lookup(k);
  }

  /** lookup() for a database given as the object (committed reads). */
  lookupIn(db: BinaryDB, key: Buffer): PendingEntry | undefined {
    const name = this.#names.get(db);
    return name === undefined ? undefined : this.lookup(name, key);
  }

  #hasPending(name: DatabaseName): boolean {
    return this.#layer(name).size > 0 || (this.#recording?.get(name)?.size ?? 0) > 0;
  }

  /** Pending writes of `name` in `range`, ascending; the set being recorded over the layer. */
  #range(name: DatabaseName, range: StringRange): PendingEntry[] {
    const layered = this.#layer(name).range(range);
    const recorded = this.#recording?.get(name);
    if (recorded === undefined || recorded.size === 0) return layered;
    const merged = new Map(layered.map((entry) => [keyString(entry.key), entry]));
    for (const [key, entry] of recorded) {
      if (inStringRange(key, range)) merged.set(key, entry);
    }
    return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
  }

  #record(name: DatabaseName, key: Buffer, value: Buffer | undefined): void {
    // copies: a caller may reuse its buffers after the call, as LMDB would have copied them
    this.#recordAsIs(name, Buffer.from(key), value === undefined ? undefined : Buffer.from(value));
  }

  #recordAsIs(name: DatabaseName, key: Buffer, value: Buffer | undefined): void {
    const recording = this.#recording;
    if (recording === undefined) throw new Error('Write-behind: no set is being recorded');
    let entries = recording.get(name);
    if (entries === undefined) {
      entries = new Map();
      recording.set(name, entries);
    }
    entries.set(keyString(key), { key, value });
  }

  /**
   * putSync of a key and a value that nobody changes afterwards (a commit's tree nodes and state values,
   * made for it): inside a recorded commit they are kept as they are, without putSync's copies (a block of
   * 100 transfers writes some 2,500 records); otherwise the database's putSync.
   */
  putOwnedSync(db: BinaryDB, key: Buffer, value: Buffer): void {
    const name = this.#names.get(db);
    if (this.#recording === undefined || name === undefined) db.putSync(key, value);
    else this.#recordAsIs(name, key, value);
  }

  #layer(name: DatabaseName): PendingLayer {
    const layer = this.#layers.get(name);
    if (layer === undefined) throw new Error(`Write-behind: unknown database ${name}`);
    return layer;
  }

  #startFlush(): void {
    if (this.#flushing !== undefined || this.#queued.length === 0 || this.#failure !== undefined) return;
    // a flush ends at the first set a whenStored callback waits for
    const barrier = this.#stored[0]?.seq;
    const count = barrier === undefined ? this.#queued.length : this.#queued.findIndex((set) => set.seq >= barrier) + 1;
    const sets = this.#queued.slice(0, count > 0 ? count : this.#queued.length);
    this.#queued = this.#queued.slice(sets.length);
    this.#inFlight = sets;
    // later sets overwrite earlier ones key by key: the transaction leaves what applying them in order would
    const merged = new Map<DatabaseName, Map<string, PendingEntry>>();
    for (const set of sets) {
      for (const [name, entries] of set.writes) {
        const into = merged.get(name);
        if (into === undefined) merged.set(name, new Map(entries));
        else for (const [key, entry] of entries) into.set(key, entry);
      }
    }
    const written = this.#options.flushWith === 'batch' ? this.#writeBatch(merged) : this.#writeTransaction(merged);
    this.#flushing = written.then(
      () => this.#flushed(sets, merged),
      (error: unknown) => {
        this.#failure = { error };
        this.#flushing = undefined;
      },
    );
  }

  #writeBatch(merged: Map<DatabaseName, Map<string, PendingEntry>>): Promise<unknown> {
    return this.#dbs.root.batch(() => {
      for (const [name, entries] of merged) {
        const db = this.#dbs[name];
        for (const { key, value } of entries.values()) {
          if (value === undefined) void db.remove(key);
          else void db.put(key, value);
        }
      }
    });
  }

  #writeTransaction(merged: Map<DatabaseName, Map<string, PendingEntry>>): Promise<unknown> {
    try {
      this.#dbs.root.transactionSync(() => {
        for (const [name, entries] of merged) {
          const db = this.#dbs[name];
          for (const { key, value } of entries.values()) {
            if (value === undefined) db.remove(key);
            else db.put(key, value);
          }
        }
      });
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #flushed(sets: readonly WriteSet[], merged: Map<DatabaseName, Map<string, PendingEntry>>): void {
    const last = sets[sets.length - 1]?.seq ?? 0;
    for (const [name, entries] of merged) {
      const layer = this.#layer(name);
      for (const key of entries.keys()) layer.flushed(key, last);
    }
    for (const set of sets) this.#pendingBytes -= set.bytes;
    this.#inFlight = [];
    this.#flushes++;
    this.#flushedSets += sets.length;
    this.#flushing = undefined;
    this.#onFlushed();
    for (const listener of this.#flushListeners) listener(last);
    while (this.#stored[0] !== undefined && this.#stored[0].seq <= last) this.#stored.shift()?.callback();
    if (this.#queued.length >= this.#flushEvery() || this.#stored.length > 0) this.#startFlush();
  }

  #flushEvery(): number {
    return this.#options.flushEvery ?? (this.#options.flushWith === 'batch' ? 10 : 25);
  }

  /**
   * Routes the named databases' reads and writes through this layer: get, getRange (and getKeys,
   * which lmdb-js answers through getRange) see pending writes (unless given an explicit read transaction: an LMDB snapshot is asked
   * for), putSync and removeSync inside a recorded commit are recorded. Outside a recorded commit
   * every call goes to LMDB as before; with nothing pending the layer costs one check per call.
   */
  install(): void {
    for (const name of DATABASE_NAMES) this.#wrap(name, this.#dbs[name]);
  }

  #wrap(name: DatabaseName, db: BinaryDB): void {
    const get = db.get.bind(db);
    const putSync = db.putSync.bind(db) as (key: Buffer, value: Buffer, ...rest: unknown[]) => boolean;
    const removeSync = db.removeSync.bind(db) as (key: Buffer, ...rest: unknown[]) => boolean;
    const overrides = {
      ...pendingReadOverrides(db, {
        lookup: (key) => this.lookup(name, key),
        hasPending: () => this.#hasPending(name),
        range: (range) => this.#range(name, range),
      }),
      // lmdb-js answers false for a put it refused (an append out of order): the caller must see it
      putSync: (key: Buffer, value: Buffer, ...rest: unknown[]): boolean => {
        if (this.#recording === undefined) return putSync(key, value, ...rest);
        if (rest.length > 0) throw new Error('Write-behind records plain puts only (no versions or options)');
        this.#record(name, key, value);
        return true;
      },
      removeSync: (key: Buffer, ...rest: unknown[]): boolean => {
        if (this.#recording === undefined) return removeSync(key, ...rest);
        if (rest.length > 0) throw new Error('Write-behind records plain removes only (no value or version)');
        const existed = this.lookup(name, key)?.value ?? get(key);
        this.#record(name, key, undefined);
        return existed !== undefined;
      },
    };
    // lmdb-js's databases are plain objects: own properties shadow its prototype's methods
    Object.assign(db, overrides as unknown as Partial<BinaryDB>);
  }
}

const registry = new WeakMap<object, WriteBehind>();

/** Makes (once) and installs the write-behind layer of a writable environment. */
export const installWriteBehind = (dbs: Databases, onFlushed: () => void): WriteBehind => {
  const existing = registry.get(dbs.root);
  if (existing !== undefined) return existing;
  const behind = new WriteBehind(dbs, onFlushed);
  behind.install();
  registry.set(dbs.root, behind);
  registerPendingReads(dbs.root, behind);
  return behind;
};

/** The environment's write-behind layer (none for a read-only one). */
export const writeBehindOf = (root: object): WriteBehind | undefined => registry.get(root);

/** WriteBehind.putOwnedSync where the environment has write-behind, else `db.putSync`: `key` and `value` must never change. */
export const putOwnedSync = (dbs: Pick<Databases, 'root'>, db: BinaryDB, key: Buffer, value: Buffer): void => {
  const behind = registry.get(dbs.root);
  if (behind === undefined) db.putSync(key, value);
  else behind.putOwnedSync(db, key, value);
};

import type { BinaryDB, KestrelDatabases } from './database.js';
import type { PendingEntry } from './pending_layer.js';
import { keyString, PendingLayer } from './pending_layer.js';
import type { PendingReads } from './pending_reads.js';
import { pendingReadOverrides, registerPendingReads } from './pending_reads.js';
import type { DatabaseName } from './tables.js';

/** One mirrored set's keys, by database, to forget once LMDB holds them. */
interface MirroredSet {
  readonly seq: number;
  readonly keys: { layer: PendingLayer; key: string }[];
}

/**
 * Another thread's view of the write-behind sets of the thread that writes an environment: the
 * writer hands over each set it records (apply) and the number of the last set each flush wrote
 * (flushed); reads of the mirrored databases, through this environment's handles, see the sets
 * LMDB does not hold yet, as the writer's own reads do. Nothing is ever written from here.
 */
export class PendingMirror implements PendingReads {
  readonly #layers = new Map<BinaryDB, PendingLayer>();
  readonly #byName = new Map<DatabaseName, PendingLayer>();
  readonly #sets: MirroredSet[] = [];
  #lastApplied = 0;

  /** Mirrors `names` of `dbs` (an environment opened by this thread) and routes their reads through the mirror. */
  constructor(dbs: KestrelDatabases, names: readonly DatabaseName[]) {
    for (const name of names) {
      const layer = new PendingLayer();
      const db = dbs[name];
      this.#layers.set(db, layer);
      this.#byName.set(name, layer);
      const overrides = pendingReadOverrides(db, {
        lookup: (key) => layer.lookup(keyString(key)),
        hasPending: () => layer.size > 0,
        range: (range) => layer.range(range),
      });
      // lmdb-js's databases are plain objects: own properties shadow its prototype's methods
      Object.assign(db, overrides as unknown as Partial<BinaryDB>);
    }
    registerPendingReads(dbs.root, this);
  }

  /** Set `seq`'s writes of one database (sets arrive in order; one set may come in several calls, one per database). */
  apply(seq: number, name: DatabaseName, entries: readonly PendingEntry[]): void {
    if (seq < this.#lastApplied) throw new Error(`Pending mirror: set ${seq} after set ${this.#lastApplied}`);
    const layer = this.#byName.get(name);
    if (layer === undefined) throw new Error(`Pending mirror: database ${name} is not mirrored`);
    let set = this.#sets[this.#sets.length - 1];
    if (set === undefined || set.seq !== seq) {
      set = { seq, keys: [] };
      this.#sets.push(set);
    }
    this.#lastApplied = seq;
    for (const entry of entries) {
      const key = keyString(entry.key);
      layer.write(key, entry, seq);
      set.keys.push({ layer, key });
    }
  }

  /** LMDB holds every set up to `lastSet`: their writes are read from it from now on (renew the read transaction with this). */
  flushed(lastSet: number): void {
    let done = 0;
    while (done < this.#sets.length && (this.#sets[done] as MirroredSet).seq <= lastSet) {
      for (const { layer, key } of (this.#sets[done] as MirroredSet).keys) layer.flushed(key, lastSet);
      done++;
    }
    this.#sets.splice(0, done);
  }

  /** Sets mirrored and not yet flushed. */
  get pendingSets(): number {
    return this.#sets.length;
  }

  lookupIn(db: BinaryDB, key: Buffer): PendingEntry | undefined {
    return this.#layers.get(db)?.lookup(keyString(key));
  }
}

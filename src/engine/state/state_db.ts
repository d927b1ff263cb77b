import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { STATE_SMT_KEY_LENGTH, stateSMTKeys, stateSMTValues } from '../../lib/state/keys.js';
import type { SMTNodeList, SMTProof } from '../../lib/tree/index.js';
import { EMPTY_HASH, EMPTY_ROOT_REF, nodeRef, refHash, SparseMerkleTree, smtNodeList } from '../../lib/tree/index.js';
import { appendSync, appendTreeNodes } from '../../storage/appends.js';
import type { Writes } from '../../storage/commit.js';
import { commitWrites } from '../../storage/commit.js';
import { getCommitted } from '../../storage/committed_reads.js';
import type { BinaryDB, KestrelDatabases } from '../../storage/database.js';
import { removeHeightsBelow } from '../../storage/prune.js';
import type { CommittedState } from '../../storage/state_roots.js';
import {
  committedStateOf,
  readCommittedState,
  readPendingTree,
  readRootAt,
  readRootRefAt,
  removeCommittedState,
  rootRefOf,
  writeCommittedState,
  writePendingTree,
} from '../../storage/state_roots.js';
import { TABLES, tableHeightKey } from '../../storage/tables.js';
import { assertVersionedTree } from '../../storage/tree_layout.js';
import { putOwnedSync } from '../../storage/write_behind.js';
import { StateOverlay } from './overlay.js';
import { RecordMirror } from './record_mirror.js';
import type { Entry, IterateOptions, StateReadWriter } from './types.js';

const diffKey = (height: number): Buffer => tableHeightKey(TABLES.stateDiffs, height);

/** One key's value before a block changed it (absent keys have existed=false). */
const undoEntrySchema = {
  type: 'object',
  required: ['key', 'existed', 'previous'],
  properties: {
    key: { dataType: 'bytes', fieldNumber: 1 },
    existed: { dataType: 'boolean', fieldNumber: 2 },
    previous: { dataType: 'bytes', fieldNumber: 3 },
  },
} as const;

/** What a block changed, to undo it: every key's previous value and the previous root. */
const diffSchema = {
  $id: '/kestrel/state/diff',
  type: 'object',
  required: ['previousRoot', 'entries'],
  properties: {
    previousRoot: { dataType: 'bytes', fieldNumber: 1 },
    entries: { type: 'array', fieldNumber: 2, items: undoEntrySchema },
  },
} as const satisfies Schema;

/** What a block changed in state outside the tree (the engine's): every key's previous value. */
const undoSchema = {
  $id: '/kestrel/state/undo',
  type: 'object',
  required: ['entries'],
  properties: { entries: { type: 'array', fieldNumber: 1, items: undoEntrySchema } },
} as const satisfies Schema;

export interface UndoEntry {
  key: Buffer;
  existed: boolean;
  previous: Buffer;
}
export interface StateDiff {
  previousRoot: Buffer;
  entries: UndoEntry[];
}
const diffCodec = compile<StateDiff>(diffSchema);
const undoCodec = compile<{ entries: UndoEntry[] }>(undoSchema);

export const encodeUndo = (entries: UndoEntry[]): Buffer => undoCodec.encode({ entries });
export const decodeUndo = (bytes: Uint8Array): UndoEntry[] => undoCodec.decode(bytes).entries;

const undoEntry = (key: Buffer, previous: Buffer | undefined): UndoEntry => ({
  key,
  existed: previous !== undefined,
  previous: previous ?? Buffer.alloc(0),
});

/** An overlay's changes with the state root they give, ready to commit. */
export interface PreparedState {
  readonly baseHeight: number | undefined;
  readonly baseRoot: Buffer;
  readonly root: Buffer;
  readonly changes: readonly { key: Buffer; value: Buffer | undefined; previous: Buffer | undefined }[];
  /** The tree's new root, its reference (`version || hash`), and the nodes that give it. */
  readonly smt: { readonly root: Buffer; readonly rootRef: Buffer; readonly nodes: SMTNodeList };
  /**
   * Prepared on a state holding nothing (prepareOnEmpty): the changes (key order) and, when the list is
   * ascending, the tree nodes are written as appends, LMDB's cheapest insert.
   */
  readonly onEmpty?: true;
  /** Committed without its tree (a deferred genesis tree): `root` is the header's, recorded as pending for buildPendingStateTree. */
  readonly treePending?: true;
}

/**
 * A state's tree as prepareOnEmpty takes it: built with its nodes, or deferred: only the root it must have
 * is known (a pinned genesis header's), the nodes are built from the committed state afterwards.
 */
export type GenesisTree =
  | { readonly root: Buffer; readonly rootRef: Buffer; readonly nodes: SMTNodeList }
  | { readonly root: Buffer; readonly deferred: true };

/** Thrown by what reads or extends the state tree while a committed state's tree is still being built. */
export class StateTreePendingError extends Error {
  override readonly name = 'StateTreePendingError';
}

/**
 * An MDB_APPEND put inside the open write transaction: the key must sort after every key of the
 * database, else nothing is written and this returns false (lmdb-js's putSync returns whether it
 * wrote, though its typings say void).
 */

/** Caller records written in the same transaction as the state (block, events). */
export type ExtraWrites = Writes;

/** The next key after every key that starts with `key` (exclusive end for an inclusive range). */
const afterPrefix = (key: Buffer): Buffer => Buffer.concat([key, Buffer.alloc(1)]);

/** A range's entries in key order as `options` asks for them: reversed when `reverse`, then the first `limit`. */
export const inIterationOrder = (ascending: Entry[], options: IterateOptions): Entry[] => {
  const ordered = options.reverse === true ? ascending.reverse() : ascending;
  return options.limit === undefined ? ordered : ordered.slice(0, options.limit);
};

/**
 * Entries of an LMDB database with gte <= key <= lte, in iteration order (`reverse`, `limit`), reading
 * only the entries returned: in reverse from lte down (LMDB's reverse start is inclusive), stopping below
 * gte or at the limit (the latest BFT parameters below a height, read several times a block).
 */
export const readRange = (db: BinaryDB, options: IterateOptions): Entry[] => {
  const { gte, lte, limit, reverse } = options;
  const out: Entry[] = [];
  if (limit === 0) return out;
  const range =
    reverse === true
      ? db.getRange({ start: lte, reverse: true })
      : db.getRange({ start: gte, end: afterPrefix(lte), ...(limit === undefined ? {} : { limit }) });
  for (const { key, value } of range) {
    if (reverse === true && Buffer.compare(key, gte) < 0) break;
    out.push({ key: Buffer.from(key), value: Buffer.from(value) });
    if (out.length === limit) break;
  }
  return out;
};

/** Committed state in LMDB with its state tree; blocks execute on overlays and commit atomically. */
export class StateDB {
  readonly #tree: SparseMerkleTree;
  /**
   * The nodes the last inclusion proofs read (provePrepared): the next block's proofs walk the same paths, changed
   * only where that block changed the tree, and a node's hash fixes its content, so they are never stale.
   */
  #proofNodes = new Map<string, Buffer>();
  /**
   * The pending-tree record was read absent: only this StateDB's commit of a state prepared without its tree
   * writes one (the tree thread only removes it), so every block need not read it again.
   */
  #treeKnownBuilt = false;

  constructor(readonly dbs: KestrelDatabases) {
    assertVersionedTree(dbs);
    this.#tree = new SparseMerkleTree(STATE_SMT_KEY_LENGTH, { get: (ref) => dbs.smt.get(ref) });
  }

  #current(): CommittedState | undefined {
    return readCommittedState(this.dbs);
  }

  /** Height of the last committed state, undefined before the first commit. */
  get height(): number | undefined {
    return this.#current()?.height;
  }

  get root(): Buffer {
    return this.#current()?.root ?? EMPTY_HASH;
  }

  /** The state root committed at `height`, if it is known. */
  rootAt(height: number): Buffer | undefined {
    return readRootAt(this.dbs, height);
  }

  get(key: Buffer): Buffer | undefined {
    return getCommitted(this.dbs, this.dbs.state, key);
  }

  iterate(options: IterateOptions): Entry[] {
    return readRange(this.dbs.state, options);
  }

  /**
   * A fresh execution context over the committed state. `rememberReads` (a block's execution): the
   * committed values it reads are kept for the block's life, read once each (see StateOverlay).
   */
  newOverlay(rememberReads = false): BlockState {
    return new BlockState(this, rememberReads);
  }

  /** The committed state whose tree is still to be built (buildPendingStateTree), if any. */
  get pendingTree(): CommittedState | undefined {
    if (this.#treeKnownBuilt) return undefined;
    const pending = readPendingTree(this.dbs);
    this.#treeKnownBuilt = pending === undefined;
    return pending;
  }

  /** Refuses what needs the tree while its nodes are not stored (a block on top, a proof). */
  #assertTreeBuilt(what: string): void {
    const pending = this.pendingTree;
    if (pending !== undefined)
      throw new StateTreePendingError(
        `Cannot ${what}: the state tree of height ${pending.height} is still being built (root ${pending.root.toString('hex')})`,
      );
  }

  /** Computes the state root the overlay's changes give, without writing anything. */
  prepare(state: BlockState): PreparedState {
    this.#assertTreeBuilt('execute on the state');
    const changes = state.overlay
      .changes()
      .map(({ key, value }) => ({ key, value, previous: state.readsFrom(this) ? state.baseValue(key) : this.get(key) }))
      .filter(
        ({ value, previous }) => !(value === undefined ? previous === undefined : previous?.equals(value) === true),
      );
    const current = this.#current();
    const baseRoot = current?.root ?? EMPTY_HASH;
    const smtKeys = stateSMTKeys(changes.map(({ key }) => key));
    const written = changes.flatMap(({ value }) => (value === undefined ? [] : [value]));
    const smtValues = stateSMTValues(written);
    let v = 0;
    // the new nodes' version is the height they are committed at (any value would do: it places them in storage)
    const { root, rootRef, nodes } = this.#tree.update(
      current === undefined ? EMPTY_ROOT_REF : rootRefOf(current),
      changes.map(({ value }, i) => ({
        key: smtKeys[i],
        value: value === undefined ? Buffer.alloc(0) : smtValues[v++],
      })),
      true,
      current === undefined ? 0 : current.height + 1,
    );
    return {
      baseHeight: current?.height,
      baseRoot,
      root,
      changes,
      smt: { root, rootRef, nodes: smtNodeList(nodes) },
    };
  }

  /**
   * The prepared state of a block executed on the empty state whose tree was already built from
   * the same changes (an overlay's, key order; a genesis block: computeGenesis builds it to check
   * the header's stateRoot), so neither the changes nor the tree are computed a second time. A
   * deferred tree is committed as pending: the state under the root given, its nodes built later.
   */
  prepareOnEmpty(changed: readonly { key: Buffer; value: Buffer | undefined }[], tree: GenesisTree): PreparedState {
    if (this.height !== undefined) throw new Error('prepareOnEmpty needs a state with nothing committed');
    const changes = changed
      .filter(({ value }) => value !== undefined)
      .map(({ key, value }) => ({ key, value, previous: undefined }));
    const base = { baseHeight: undefined, baseRoot: EMPTY_HASH, root: tree.root, changes, onEmpty: true } as const;
    // a deferred tree is built from scratch later (buildPendingStateTree), at version 0 as buildSMT builds it
    if ('deferred' in tree)
      return {
        ...base,
        smt: { root: tree.root, rootRef: nodeRef(0, tree.root), nodes: smtNodeList([]) },
        treePending: true,
      };
    if (changes.length > 0 && tree.nodes.size === 0)
      throw new Error('prepareOnEmpty needs the tree built with its nodes kept');
    return { ...base, smt: tree };
  }

  /**
   * Writes state changes, tree nodes, the undo diff, the new root and the caller's records
   * in one LMDB write transaction (commitWrites: in write-behind mode, one recorded set): all of
   * it lands, or none of it.
   */
  commit(prepared: PreparedState, height: number, extra?: ExtraWrites): Buffer {
    const current = this.#current();
    if (current?.height !== prepared.baseHeight || !(current?.root ?? EMPTY_HASH).equals(prepared.baseRoot)) {
      throw new Error('State changed since this block state was prepared');
    }
    if (current !== undefined && height !== current.height + 1)
      throw new Error(`Cannot commit height ${height} on top of height ${current.height}`);
    const diff = (): StateDiff => ({
      previousRoot: prepared.baseRoot,
      entries: prepared.changes.map(({ key, previous }) => undoEntry(key, previous)),
    });
    commitWrites(
      this.dbs,
      (dbs) => {
        if (prepared.onEmpty === true) appendAll(dbs, prepared);
        else {
          // the changed values (a block state's) and the new nodes (the update's) are never changed again
          for (const { key, value } of prepared.changes) {
            if (value === undefined) dbs.state.removeSync(key);
            else putOwnedSync(dbs, dbs.state, key, value);
          }
          prepared.smt.nodes.forEach((ref, data) => {
            putOwnedSync(dbs, dbs.smt, ref, data);
          });
        }
        // a state prepared on the empty state is a genesis block's, final as it is committed (BFT's genesis
        // state): its diff would be pruned in this same transaction
        if (prepared.onEmpty !== true) dbs.meta.putSync(diffKey(height), diffCodec.encode(diff()));
        const committed = committedStateOf(height, prepared.smt.rootRef);
        writeCommittedState(dbs, committed);
        if (prepared.treePending === true) {
          this.#treeKnownBuilt = false;
          writePendingTree(dbs, committed);
        }
      },
      extra,
    );
    return prepared.root;
  }

  /** What undoes the state changes of `height` (kept for heights above the finalized one). */
  diffAt(height: number): StateDiff | undefined {
    const raw = this.dbs.meta.get(diffKey(height));
    return raw === undefined ? undefined : diffCodec.decode(raw);
  }

  /** Undoes the last committed height (for a chain switch), in one transaction; returns the restored root. */
  revertLast(extra?: ExtraWrites): Buffer {
    const current = this.#current();
    if (current === undefined) throw new Error('Nothing to revert');
    const diff = this.diffAt(current.height);
    if (diff === undefined) throw new Error(`No diff stored for height ${current.height}`);
    const previousRef = current.height === 0 ? undefined : readRootRefAt(this.dbs, current.height - 1);
    const previous = previousRef === undefined ? undefined : committedStateOf(current.height - 1, previousRef);
    commitWrites(
      this.dbs,
      (dbs) => {
        for (const { key, existed, previous: value } of diff.entries) {
          if (existed) dbs.state.putSync(key, value);
          else dbs.state.removeSync(key);
        }
        dbs.meta.removeSync(diffKey(current.height));
        removeCommittedState(dbs, current.height, previous);
      },
      extra,
    );
    return diff.previousRoot;
  }

  /** Drops the undo diffs of heights below `height` (they can no longer be reverted); call inside a commit transaction. */
  pruneDiffsBelow(dbs: KestrelDatabases, height: number): void {
    removeHeightsBelow(dbs.meta, TABLES.stateDiffs, height);
  }

  /**
   * Inclusion/non-inclusion proof of state tree keys (stateSMTKey of a store key, as lisk-db's StateDB.prove takes
   * them) against the root committed at `height`, which must be `root` (nodes are never overwritten, so older roots
   * stay provable).
   */
  prove(height: number, root: Buffer, treeKeys: readonly Buffer[]): SMTProof {
    this.#assertTreeBuilt('prove state keys');
    const rootRef = readRootRefAt(this.dbs, height);
    if (rootRef === undefined || !refHash(rootRef).equals(root))
      throw new Error(`The state root committed at height ${height} is not ${root.toString('hex')}`);
    return this.#tree.prove(rootRef, treeKeys);
  }

  /** The same proof against a prepared state's root before it is committed (its new nodes read from the update). */
  provePrepared(prepared: PreparedState, treeKeys: readonly Buffer[]): SMTProof {
    this.#assertTreeBuilt('prove state keys');
    const created = new Map<string, Buffer>();
    prepared.smt.nodes.forEach((ref, data) => {
      created.set(ref.toString('latin1'), data);
    });
    const recent = this.#proofNodes;
    const read = new Map<string, Buffer>();
    const tree = new SparseMerkleTree(STATE_SMT_KEY_LENGTH, {
      get: (ref) => {
        const id = ref.toString('latin1');
        const data = created.get(id) ?? recent.get(id) ?? this.dbs.smt.get(ref);
        if (data !== undefined) read.set(id, data);
        return data;
      },
    });
    const proof = tree.prove(prepared.smt.rootRef, treeKeys);
    this.#proofNodes = read;
    return proof;
  }
}

/** A state prepared on the empty state written as appends: its changes in key order, its nodes in hash order when they come so. */
const appendAll = (dbs: KestrelDatabases, prepared: PreparedState): void => {
  for (const { key, value } of prepared.changes) {
    if (value === undefined) throw new Error('A state prepared on the empty state deletes nothing');
    if (!appendSync(dbs.state, key, value))
      throw new Error(`State key ${key.toString('hex')} is out of order, or the state database is not empty`);
  }
  appendTreeNodes(dbs, prepared.smt.nodes);
};

/** Committed state an overlay reads through. */
export interface StateBase {
  get(key: Buffer): Buffer | undefined;
  /** The range's entries in iteration order: descending when `reverse`, at most `limit` of them. */
  iterate(options: IterateOptions): Entry[];
}

/**
 * Key-value state in one LMDB database, outside the state tree (the engine's BFT stores). Those are a few
 * records read several times a block (the BFT parameters by range, the votes by key), so every record is
 * also held in memory (RecordMirror) from the first read on: a range read then takes no LMDB cursor and no
 * merge with write-behind's pending writes. The mirror follows only the writes of writeSync and undoSync,
 * the one way this database is written: from either to the end of its transaction (inTransaction), reads go
 * to LMDB (inside the open transaction they see its writes), and the mirror takes the writes once it committed.
 */
export class PlainStateDB implements StateBase {
  #mirror: RecordMirror | undefined;
  /** The writes of the transaction open (inTransaction): reads go to LMDB meanwhile. */
  #unsettled: { key: Buffer; value: Buffer | undefined }[] | undefined;

  constructor(private readonly db: BinaryDB) {}

  get(key: Buffer): Buffer | undefined {
    return this.#unsettled === undefined ? this.#mirrored().get(key) : this.db.get(key);
  }

  iterate(options: IterateOptions): Entry[] {
    return this.#unsettled === undefined ? this.#mirrored().range(options) : readRange(this.db, options);
  }

  #mirrored(): RecordMirror {
    this.#mirror ??= new RecordMirror(this.db.getRange({}));
    return this.#mirror;
  }

  /** Writes an overlay's changes inside the block's commit transaction (in inTransaction). Returns what undoes them. */
  writeSync(state: BlockState): UndoEntry[] {
    const changes = state.overlay.changes();
    this.#written(changes);
    const undo: UndoEntry[] = [];
    for (const { key, value } of changes) {
      undo.push(undoEntry(key, this.db.get(key)));
      if (value === undefined) this.db.removeSync(key);
      else this.db.putSync(key, value);
    }
    return undo;
  }

  /** Puts back the values writeSync replaced, inside a write transaction (in inTransaction). */
  undoSync(entries: readonly UndoEntry[]): void {
    this.#written(entries.map(({ key, existed, previous }) => ({ key, value: existed ? previous : undefined })));
    for (const { key, existed, previous } of entries) {
      if (existed) this.db.putSync(key, previous);
      else this.db.removeSync(key);
    }
  }

  #written(changes: readonly { key: Buffer; value: Buffer | undefined }[]): void {
    if (this.#unsettled === undefined) throw new Error('The engine state is written inside inTransaction only');
    this.#unsettled.push(...changes);
  }

  /**
   * Runs `transaction`, an LMDB write transaction (commitWrites) in which writeSync or undoSync writes, and
   * gives the mirror its writes once it committed (none when it threw: LMDB kept nothing of it).
   */
  inTransaction<T>(transaction: () => T): T {
    if (this.#unsettled !== undefined) throw new Error('The engine state has a transaction open already');
    this.#unsettled = [];
    let committed = false;
    try {
      const result = transaction();
      committed = true;
      return result;
    } finally {
      const written = this.#unsettled;
      this.#unsettled = undefined;
      if (committed) this.#mirror?.apply(written);
    }
  }
}

/** State with nothing committed (genesis tooling, tests). */
export const EMPTY_STATE: StateBase = { get: () => undefined, iterate: () => [] };

/** One block's execution state: an overlay on the committed state, with snapshots for transactions. */
export class BlockState implements StateReadWriter {
  readonly overlay: StateOverlay;

  constructor(
    private readonly db: StateBase,
    rememberReads = false,
  ) {
    this.overlay = new StateOverlay((key) => db.get(key), rememberReads);
  }

  /** Whether this state is an overlay on `db`. */
  readsFrom(db: StateBase): boolean {
    return this.db === db;
  }

  /** `key`'s value in the state under the overlay (before this block's changes). */
  baseValue(key: Buffer): Buffer | undefined {
    return this.overlay.baseValue(key);
  }

  get(key: Buffer): Buffer | undefined {
    return this.overlay.get(key);
  }
  has(key: Buffer): boolean {
    return this.overlay.has(key);
  }
  set(key: Buffer, value: Buffer): void {
    this.overlay.set(key, value);
  }
  setOwned(key: Buffer, value: Buffer): void {
    this.overlay.setOwned(key, value);
  }
  del(key: Buffer): void {
    this.overlay.del(key);
  }
  snapshot(): number {
    return this.overlay.snapshot();
  }
  restoreSnapshot(id: number): void {
    this.overlay.restoreSnapshot(id);
  }
  iterate(options: IterateOptions): Entry[] {
    const { gte, lte } = options;
    // nothing of this block's in the range: the committed state answers, limit and order included
    if (!this.overlay.changesWithin(gte, lte)) return this.db.iterate(options);
    return inIterationOrder(this.overlay.mergeRange(this.db.iterate({ gte, lte }), gte, lte), options);
  }
}

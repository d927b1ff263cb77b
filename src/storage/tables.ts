/**
 * Every LMDB database of a node's environment and every key prefix inside it, in one place
 * (DESIGN.md "Storage"). Names and prefixes are the on-disk format: changing one orphans the
 * data already stored under it. Keys that sort by height end with the height as uint32 BE.
 */

/** The named databases of the environment at `<dataPath>/data/kestrel.lmdb`. */
export const DATABASE_NAMES = ['state', 'smt', 'meta', 'blocks', 'events', 'generator', 'engine', 'legacy'] as const;
export type DatabaseName = (typeof DATABASE_NAMES)[number];

/** One kind of record: the database it lives in, the prefix of its keys and what follows the prefix. */
export interface Table {
  readonly db: DatabaseName;
  readonly prefix: Buffer;
  /** `key -> value` after the prefix. */
  readonly layout: string;
}

const table = (db: DatabaseName, prefix: string | Buffer, layout: string): Table => ({
  db,
  prefix: typeof prefix === 'string' ? Buffer.from(prefix) : prefix,
  layout,
});

export const TABLES = {
  // application state and its tree
  stateEntries: table(
    'state',
    '',
    "storePrefix(4) || substorePrefix(2) || key -> value (the modules' substores, Lisk SDK v6 keys)",
  ),
  smtNodes: table(
    'smt',
    '',
    'version (uint32 BE, the height of the commit that wrote the node) || node hash -> encoded state tree node (leaf 0x00 || key || value, branch 0x01 || left version || left hash || right version || right hash)',
  ),
  stateCurrent: table('meta', 'current', '-> { height, root, rootVersion } of the last committed state'),
  stateRoots: table(
    'meta',
    'root:',
    'height -> the reference (version || hash) of the state root committed at that height',
  ),
  pendingStateTree: table(
    'meta',
    'pending-tree',
    "-> { height, root } of a committed state whose tree nodes are not stored yet (a large pinned genesis block's: its tree is built after the commit, then this key goes in the transaction that stores the nodes)",
  ),
  stateDiffs: table(
    'meta',
    'diff:',
    "height -> { previousRoot, entries } undoing that height's state changes (kept above the finalized height)",
  ),
  // engine state outside the tree
  bftState: table(
    'engine',
    Buffer.alloc(4),
    'substorePrefix(2) || key -> value (BFT parameters and votes; Klayr fixes the BFT store prefix to 0x00000000)',
  ),
  engineUndo: table(
    'meta',
    'engine-undo:',
    "height -> entries undoing that height's engine (BFT) state changes (kept above the finalized height)",
  ),
  finalized: table(
    'meta',
    'finalized',
    '-> uint32 BE, the highest height ever finalized (never lowered by a block deletion)',
  ),
  inclusionProofs: table(
    'meta',
    'proof:',
    "height -> SMT proof of system.inclusionProofKeys against that height's state root",
  ),
  tempBlocks: table(
    'meta',
    'temp-block:',
    "height -> encoded block deleted for a chain switch, until the switch ends (Klayr's tempBlocks; restored on start when better)",
  ),
  // blocks and events
  blocksByID: table('blocks', 'i:', 'block ID -> encoded block'),
  blockIDsByHeight: table('blocks', 'h:', 'height -> block ID'),
  lastBlock: table('blocks', 'last', '-> uint32 BE, the height of the last block'),
  transactionBlocks: table('blocks', 't:', 'transaction ID -> ID of the block that includes it'),
  events: table('events', '', "height -> the block's encoded events (pruned after system.keepEventsForHeights)"),
  // the generator's own records (never part of a root)
  generatorKeys: table('generator', 'keys:', 'address -> generator keys, plain or encrypted'),
  generatedInfo: table('generator', 'info:', 'address -> previously generated info (LIP 0058)'),
  hashOnions: table('generator', 'onion:', 'address -> hash onion checkpoints'),
  usedHashOnions: table('generator', 'used:', 'address -> hash onion counts used by height'),
  // the legacy chain's blocks (Klayr's legacy.db), filled by legacy sync, never part of a root
  legacyBlocksByID: table('legacy', 'i:', 'legacy block ID -> encoded legacy block header'),
  legacyBlockIDsByHeight: table('legacy', 'h:', 'height -> legacy block ID'),
  legacyTransactions: table('legacy', 't:', 'legacy transaction ID -> encoded legacy transaction'),
  legacyBlockTransactions: table('legacy', 'p:', 'legacy block ID -> its transaction IDs, concatenated'),
  legacyBrackets: table(
    'legacy',
    'bracket:',
    'snapshot block ID -> { startHeight, snapshotBlockHeight, lastBlockHeight } (Klayr codec), the sync progress',
  ),
  // the P2P network's records (Klayr keeps them in its node database)
  networkSecret: table('meta', 'network:nodeSecret', '-> 4 random bytes, the peer book secret (uint32 BE)'),
  networkTriedPeers: table('meta', 'network:triedPeersList', '-> JSON [{ ipAddress, port }] of the tried peers'),
} as const satisfies Record<string, Table>;

/** `prefix || suffix` in `table`. */
export const tableKey = (t: Table, suffix: Uint8Array = Buffer.alloc(0)): Buffer => Buffer.concat([t.prefix, suffix]);

/** `prefix || height` (uint32 BE) in `table`: keys that sort by height. */
export const tableHeightKey = (t: Table, height: number): Buffer => {
  const out = Buffer.alloc(t.prefix.length + 4);
  t.prefix.copy(out);
  out.writeUInt32BE(height, t.prefix.length);
  return out;
};

/** The key range of `table` whose suffix is `length` bytes long (e.g. every 20-byte address): [start, end). */
export const tableRange = (t: Table, length: number): { start: Buffer; end: Buffer } => ({
  start: tableKey(t, Buffer.alloc(length)),
  end: tableKey(t, Buffer.alloc(length + 1, 255)),
});

/** A height as stored in values (`last`, `finalized`): uint32 BE. */
export const encodeHeight = (height: number): Buffer => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(height);
  return out;
};

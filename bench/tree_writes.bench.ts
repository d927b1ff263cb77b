// Writing a flush of state tree nodes into LMDB: under `version || hash` (Kestrel's layout, a flush's nodes side by
// side) against keys by hash alone (Kestrel before session 15: each node on a random page of the B-tree). Both stores
// are filled with the same number of nodes first; each sample writes ten blocks' new nodes in one durable transaction.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { nodeRef } from '../src/lib/tree/index.js';
import { tempDataPath } from '../test/helpers/state.js';
import { comparePaired, printAndSave } from './harness.js';

/** About what a 2,000-block sync of the bench chain wrote a block (836,875 nodes over two syncs), ten blocks a flush. */
const NODES_PER_FLUSH = 2100;
/** A stored branch (73 bytes) or leaf of the state tree. */
const NODE_BYTES = 73;
const FILL_BATCH = 20_000;

const store = (dir: string) => {
  const root = open<Buffer, Buffer>({
    path: join(dir, 'tree.lmdb'),
    encoding: 'binary',
    keyEncoding: 'binary',
    maxDbs: 2,
    noSync: false,
    compression: false,
  });
  return { root, smt: root.openDB<Buffer, Buffer>({ name: 'smt', encoding: 'binary', keyEncoding: 'binary' }) };
};

type Store = ReturnType<typeof store>;

const writeFlush = (s: Store, keys: readonly Buffer[], value: Buffer): void => {
  s.root.transactionSync(() => {
    for (const key of keys) s.smt.putSync(key, value);
  });
};

/** `count` random 32-byte node hashes. */
const hashes = (count: number): Buffer[] => Array.from({ length: count }, () => randomBytes(32));

export const treeWritesBench = async (): Promise<void> => {
  const filled = Number(process.env.KESTREL_TREE_NODES ?? 400_000);
  const samples = Number(process.env.KESTREL_TREE_SAMPLES ?? 60);
  const value = randomBytes(NODE_BYTES);
  const dirs = [tempDataPath(), tempDataPath()];
  const byVersion = store(dirs[0]);
  const byHash = store(dirs[1]);
  try {
    let version = 0;
    for (let done = 0; done < filled; done += FILL_BATCH) {
      const batch = hashes(Math.min(FILL_BATCH, filled - done));
      version++;
      writeFlush(
        byVersion,
        batch.map((hash) => nodeRef(version, hash)),
        value,
      );
      writeFlush(byHash, batch, value);
    }
    // every sample writes fresh nodes: the same hashes for both layouts, the versioned ones under the next version
    const flushes = Array.from({ length: samples + 200 }, () => hashes(NODES_PER_FLUSH));
    let next = 0;
    let nextHashed = 0;
    const result = await comparePaired(
      {
        name: `write a flush of ${NODES_PER_FLUSH} state tree nodes into a store of ${filled} (one durable transaction)`,
        baselineName: 'the same nodes keyed by hash alone (the layout before)',
        ours: () => {
          version++;
          const flush = flushes[next++ % flushes.length];
          writeFlush(
            byVersion,
            flush.map((hash) => nodeRef(version, hash)),
            value,
          );
        },
        baseline: () => {
          writeFlush(byHash, flushes[nextHashed++ % flushes.length], value);
        },
      },
      { warmupMs: 1000, samples },
    );
    printAndSave('tree-writes', [result], { filled, nodesPerFlush: NODES_PER_FLUSH });
  } finally {
    await Promise.all([byVersion.root.close(), byHash.root.close()]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
};

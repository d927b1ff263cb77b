import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateDB } from '../../src/engine/state/state_db.js';
import { stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { openDatabases } from '../../src/storage/database.js';

export const tempDataPath = (): string => mkdtempSync(join(tmpdir(), 'kestrel-state-'));

export const openState = (dataPath: string, readOnly = false): StateDB =>
  new StateDB(openDatabases(dataPath, { readOnly }));

/** The state root recomputed from scratch from every entry in the state database. */
export const recomputeRoot = (db: StateDB): Buffer => {
  const store = new InMemorySMTStore();
  const entries = db.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) });
  if (entries.length === 0) return EMPTY_HASH;
  const tree = new SparseMerkleTree(38, store);
  return tree.update(
    EMPTY_HASH,
    entries.map(({ key, value }) => ({ key: stateSMTKey(key), value: stateSMTValue(value) })),
  ).root;
};

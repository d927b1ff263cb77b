import { hash as nodeHash, randomBytes } from 'node:crypto';
import { createLocalStateProver } from '../src/engine/pools/state_prover.js';
import { stateSMTKey, stateSMTValue } from '../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../src/lib/tree/index.js';
import { createPooledStateProver } from '../src/workers/state_prover.js';
import { openState, tempDataPath } from '../test/helpers/state.js';
import type { Comparison } from './harness.js';
import { runSuite } from './harness.js';

const BASE_KEYS = 100_000;
const key = (): Buffer => Buffer.concat([Buffer.from('00000001', 'hex'), Buffer.from('0000', 'hex'), randomBytes(20)]);

/** A tree of BASE_KEYS state entries; updates of n changed keys are measured against the SHA-256 floor of the hashes they need. */
const smtComparison = (tree: SparseMerkleTree, root: Buffer, existing: Buffer[], n: number): Comparison => {
  const changes = Array.from({ length: n }, (_, i) => ({
    key: i % 2 === 0 ? stateSMTKey(existing[i]) : stateSMTKey(key()),
    value: stateSMTValue(randomBytes(40)),
  }));
  const hashes = tree.update(root, changes).nodes.length; // every created node costs exactly one hash
  const input = randomBytes(64);
  return {
    name: `SMT update, ${n} changed keys (${hashes} hashes) on ${BASE_KEYS} keys`,
    ours: () => tree.update(root, changes),
    baseline: () => {
      for (let i = 0; i < hashes; i++) nodeHash('sha256', input, 'buffer');
    },
    baselineName: 'SHA-256 floor (node:crypto, 64 B)',
    goal: 0.25,
  };
};

export const stateBench = async () => {
  const store = new InMemorySMTStore();
  const tree = new SparseMerkleTree(38, store);
  const existing = Array.from({ length: BASE_KEYS }, key);
  const root = store.apply(
    tree.update(
      EMPTY_HASH,
      existing.map((k) => ({ key: stateSMTKey(k), value: stateSMTValue(randomBytes(40)) })),
    ),
  );

  const dataPath = tempDataPath();
  const db = openState(dataPath);
  const block = db.newOverlay();
  const stateKeys = existing.slice(0, 10_000);
  for (const k of stateKeys) block.set(k, randomBytes(40));
  const stateRoot = db.commit(db.prepare(block), 0);
  let i = 0;
  const nextKey = (): Buffer => stateKeys[i++ % stateKeys.length];
  const overlay = db.newOverlay();
  const lmdbState = db.dbs.state;
  const map = new Map<string, Buffer>();
  const value = randomBytes(40);
  const query = stateKeys.slice(0, 8);
  const local = createLocalStateProver();
  const pooled = createPooledStateProver(1);
  await pooled.prove({ dataPath, expectedRoot: stateRoot, keys: query }); // start the worker before timing
  try {
    await runSuite(
      'state',
      [
        smtComparison(tree, root, existing, 1_000),
        smtComparison(tree, root, existing, 10_000),
        {
          name: 'committed state get',
          ours: () => db.get(nextKey()),
          baseline: () => lmdbState.get(nextKey()),
          baselineName: 'bare lmdb get',
        },
        {
          name: 'block state set',
          ours: () => overlay.set(nextKey(), value),
          baseline: () => map.set(nextKey().toString('latin1'), value),
          baselineName: 'Map.set',
        },
        {
          name: 'block state get (miss to LMDB)',
          ours: () => overlay.get(key()),
          baseline: () => lmdbState.get(key()),
          baselineName: 'bare lmdb get',
        },
        {
          name: 'prove 8 keys from a worker snapshot',
          ours: () => pooled.prove({ dataPath, expectedRoot: stateRoot, keys: query }),
          baseline: () => local.prove({ dataPath, expectedRoot: stateRoot, keys: query }),
          baselineName: 'same proof on the main thread',
        },
      ],
      1500,
    );
  } finally {
    await pooled.close();
  }
};

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { StateTreePendingError } from '../../src/engine/state/state_db.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { stateSMTKey } from '../../src/lib/state/keys.js';
import { verifySMTProof } from '../../src/lib/tree/index.js';
import {
  DEFERRED_GENESIS_TREE_MIN_ENTRIES,
  genesisTreeDeferral,
  openChain,
  readGenesisBlock,
} from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { BinaryDB } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { buildPendingStateTree, StateTreeMismatchError } from '../../src/storage/pending_tree.js';
import { startStateTreeThread } from '../../src/workers/state_tree_builder.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

/** A digest of a database's entries: equal digests, equal contents. */
const digestOf = (db: BinaryDB): string => {
  const parts: Buffer[] = [];
  for (const { key, value } of db.getRange({})) parts.push(Buffer.from(key), Buffer.from(value as Uint8Array));
  return sha256(Buffer.concat(parts)).toString('hex');
};

const count = (db: BinaryDB): number => [...db.getKeys({})].length;

/** The devnet preset (a pinned genesis block) on a fresh data path, its genesis committed with its tree deferred. */
const deferredGenesis = (logLines?: string[]) => {
  const dataPath = tempDataPath();
  const config = loadConfig({ dataPath });
  const dbs = openDatabases(dataPath);
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines?.push(line) });
  const opened = openChain(config, dbs, { deferTreeFrom: 0, logger });
  return { dataPath, config, dbs, opened };
};

/** The same genesis block committed with its tree, as any first start did before. */
const referenceTree = async (): Promise<{ smt: string; keys: Buffer[] }> => {
  const dataPath = tempDataPath();
  const dbs = openDatabases(dataPath);
  try {
    openChain(loadConfig({ dataPath }), dbs);
    const keys = [...dbs.state.getKeys({ limit: 3 })].map((k) => Buffer.from(k));
    return { smt: digestOf(dbs.smt), keys };
  } finally {
    await closeDatabases(dbs);
  }
};

describe('a genesis state committed before its tree (deferTreeFrom)', () => {
  it("is committed under the header's root with its tree pending: blocks and proofs are refused until the tree is built, and the built tree is the one a commit with the tree stores", async () => {
    const { dbs, opened } = deferredGenesis();
    const { state, genesis } = opened;
    const root = genesis.header.stateRoot;
    try {
      assert.deepEqual(state.pendingTree, { height: 0, root, rootVersion: 0 });
      assert.ok(state.root.equals(root));
      assert.equal(count(dbs.smt), 0, 'no tree node stored yet');
      assert.ok(count(dbs.state) > 0, 'the state is committed');
      const reference = await referenceTree();
      assert.throws(() => state.prepare(state.newOverlay()), StateTreePendingError);
      assert.throws(() => state.prove(0, root, reference.keys.map(stateSMTKey)), StateTreePendingError);

      assert.equal(buildPendingStateTree(dbs)?.toString('hex'), root.toString('hex'));
      assert.equal(state.pendingTree, undefined);
      assert.equal(digestOf(dbs.smt), reference.smt, 'the same nodes as a commit with the tree');
      const proof = state.prove(0, root, reference.keys.map(stateSMTKey));
      assert.ok(verifySMTProof(reference.keys.map(stateSMTKey), proof, root, 38));
      assert.equal(buildPendingStateTree(dbs), undefined, 'nothing pending: nothing done');
    } finally {
      await closeDatabases(dbs);
    }
  });

  it('a crash before the tree is built (the environment closed, as by kill -9) leaves it pending: the next open does not process the genesis block again, the thread builds the tree and blocks follow', async () => {
    const lines: string[] = [];
    const first = deferredGenesis(lines);
    const root = first.opened.genesis.header.stateRoot;
    await closeDatabases(first.dbs);
    assert.ok(lines.some((l) => l.includes('Processing the genesis block')));

    lines.length = 0;
    const dbs = openDatabases(first.dataPath);
    try {
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      let now = 0;
      const opened = openChain(first.config, dbs, { logger, now: () => now });
      assert.equal(lines.filter((l) => l.includes('Processing the genesis block')).length, 0);
      assert.deepEqual(opened.state.pendingTree, { height: 0, root, rootVersion: 0 });

      // built by a thread of its own in the environment this thread has open
      assert.equal((await startStateTreeThread().build(first.dataPath))?.toString('hex'), root.toString('hex'));
      assert.equal(opened.state.pendingTree, undefined);
      assert.equal(digestOf(dbs.smt), (await referenceTree()).smt);

      // this thread reads the nodes the other wrote and commits on top of them
      const generator = devnetGenerator(opened, first.config, dbs.generator, () => now);
      now = opened.genesis.header.timestamp + first.config.genesis.blockTime;
      assert.ok(await generator.tick());
      assert.equal(opened.chain.lastBlock().header.height, 1);
      assert.equal(opened.state.height, 1);
    } finally {
      await closeDatabases(dbs);
    }
  });

  it('a committed state that does not give the recorded root: nothing is written, the tree stays pending, and the thread reports the mismatch', async () => {
    const { dataPath, dbs, opened } = deferredGenesis();
    try {
      const [key] = [...dbs.state.getKeys({ limit: 1 })].map((k) => Buffer.from(k));
      dbs.root.transactionSync(() => dbs.state.putSync(key as Buffer, Buffer.from('not the genesis value')));
      assert.throws(() => buildPendingStateTree(dbs), StateTreeMismatchError);
      await assert.rejects(startStateTreeThread().build(dataPath), (e: Error) => {
        assert.ok(e instanceof StateTreeMismatchError);
        assert.match(e.message, /gives the state root [0-9a-f]{64}, not [0-9a-f]{64} as its block header says/);
        return true;
      });
      assert.deepEqual(opened.state.pendingTree, { height: 0, root: opened.genesis.header.stateRoot, rootVersion: 0 });
      assert.equal(count(dbs.smt), 0);
    } finally {
      await closeDatabases(dbs);
    }
  });

  it("the node defers only a pinned genesis block's tree on a first start, and only a large state's", async () => {
    const dataPath = tempDataPath();
    const config = loadConfig({ dataPath });
    const dbs = openDatabases(dataPath);
    try {
      const devnet = readGenesisBlock(config);
      assert.equal(genesisTreeDeferral(devnet, dbs), DEFERRED_GENESIS_TREE_MIN_ENTRIES);
      const unpinned = { ...devnet, header: { ...devnet.header, timestamp: devnet.header.timestamp + 1 } };
      assert.equal(genesisTreeDeferral(unpinned, dbs), undefined, 'another header');
      // the devnet's few hundred entries are below the threshold: its tree is built and committed at once
      const opened = openChain(config, dbs, { deferTreeFrom: DEFERRED_GENESIS_TREE_MIN_ENTRIES, genesis: devnet });
      assert.equal(opened.state.pendingTree, undefined);
      assert.ok(count(dbs.smt) > 0);
      assert.equal(genesisTreeDeferral(devnet, dbs), undefined, 'not a first start');
    } finally {
      await closeDatabases(dbs);
    }
  });
});

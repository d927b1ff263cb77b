// A node killed in the middle of a chain switch resumes with nothing lost: the blocks the switch deleted are in the
// temp table (written in the transaction that deletes each), and the restart (the synchronizer's init, Klayr's
// restoreBlocksUponStartup) brings them back when they are the better chain, or clears the table when they are not.
// A crash is the LMDB environment closed where it stands and opened again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalSignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { SyncChain } from '../../src/engine/sync/sync_chain.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { commitWrites } from '../../src/storage/commit.js';
import type { BinaryDB } from '../../src/storage/database.js';
import type { Node } from '../helpers/sync_chains.js';
import { forkedNodes, idsOf, peerServing, reopen, SYNC_CHAIN_ID, synchronizerOf } from '../helpers/sync_chains.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const entries = (db: BinaryDB): string[] => [...db.getRange({})].map(({ key, value }) => `${hex(key)}=${hex(value)}`);

/** What must come back exactly: the blocks, the state root, every state entry (balances among them) and the BFT state. */
const snapshotOf = (node: Node) => ({
  ids: idsOf(node),
  root: hex(node.opened.state.root),
  state: entries(node.dbs.state),
  engine: entries(node.dbs.engine),
});

const syncChainOf = (node: Node, onBlockCommitted?: (executed: ExecutedBlock) => void): SyncChain => {
  const { chain, blocks, tempBlocks, processor } = node.opened;
  return new SyncChain({
    chain,
    blocks,
    tempBlocks,
    processor,
    verifiers: { bls: createLocalBlsVerifier(), signatures: createLocalSignatureVerifier(SYNC_CHAIN_ID) },
    logger: pino({ level: 'silent' }),
    ...(onBlockCommitted !== undefined ? { onBlockCommitted } : {}),
    now: node.clock,
  });
};

/** The peer's blocks from height 1 to `to`. */
const blocksOf = (node: Node, to: number): Block[] =>
  Array.from({ length: to }, (_, i) => {
    const block = node.opened.blocks.byHeight(i + 1);
    if (block === undefined) throw new Error(`no block at height ${i + 1}`);
    return block;
  });

/** The node after a crash: opened again and its synchronizer's init run; what it logged. */
const restart = async (node: Node): Promise<{ node: Node; logs: string[] }> => {
  const restarted = await reopen(node);
  const logs: string[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => logs.push((JSON.parse(line) as { msg: string }).msg) },
  );
  const { synchronizer } = synchronizerOf(restarted, peerServing(restarted).peers, restarted.clock, logger);
  await synchronizer.init();
  return { node: restarted, logs };
};

const savedIDs = (node: Node): string[] => node.opened.tempBlocks.all().map((b) => hex(blockHeaderID(b.header)));

describe('a chain switch cut short by a crash', () => {
  it('keeps every block of the old chain in the chain or the temp table after each deletion; a failed deletion writes neither', async () => {
    const { a, b } = await forkedNodes();
    const own = idsOf(b);
    const chain = syncChainOf(b);
    for (let height = 4; height >= 0; height--) {
      chain.deleteAfter(height, true);
      assert.deepEqual([...idsOf(b), ...savedIDs(b)], own, `deleted down to height ${height}`);
    }
    const { chain: chainA, tempBlocks } = a.opened;
    const tip = chainA.lastBlock();
    const root = hex(a.opened.state.root);
    assert.throws(
      () =>
        chainA.deleteLastBlock((dbs) => {
          tempBlocks.save(dbs, tip);
          throw new Error('the transaction fails after saving');
        }),
      /the transaction fails after saving/,
    );
    assert.equal(hex(blockHeaderID(chainA.lastBlock().header)), hex(blockHeaderID(tip.header)));
    assert.equal(hex(a.opened.state.root), root);
    assert.ok(tempBlocks.isEmpty());
  });

  it('killed after deleting part of its chain: the restart restores it exactly', async () => {
    const { b } = await forkedNodes();
    const before = snapshotOf(b);
    syncChainOf(b).deleteAfter(2, true);
    assert.equal(b.opened.chain.lastBlock().header.height, 2);
    const { node, logs } = await restart(b);
    assert.deepEqual(snapshotOf(node), before);
    assert.ok(node.opened.tempBlocks.isEmpty());
    assert.ok(logs.includes('Restoring blocks from temporary table') && logs.includes('Chain successfully restored'));
  });

  it("killed after switching to two of the peer's blocks: its own higher chain is restored exactly", async () => {
    const { a, b } = await forkedNodes();
    const before = snapshotOf(b);
    const chain = syncChainOf(b);
    chain.deleteAfter(0, true);
    for (const block of blocksOf(a, 2)) await chain.apply(block);
    assert.deepEqual(idsOf(b), idsOf(a).slice(0, 2));
    const { node, logs } = await restart(b);
    assert.deepEqual(snapshotOf(node), before);
    assert.ok(node.opened.tempBlocks.isEmpty());
    assert.ok(logs.includes('Chain successfully restored'));
  });

  it('killed in the middle of restoring its chain: the restart finishes the restore', async () => {
    const { a, b } = await forkedNodes();
    const before = snapshotOf(b);
    let restoring = false;
    let restored = 0;
    // the listener runs once a block is committed: throwing there ends the restore after that block
    const chain = syncChainOf(b, () => {
      if (restoring && ++restored === 2) throw new Error('killed after two restored blocks');
    });
    chain.deleteAfter(0, true);
    for (const block of blocksOf(a, 2)) await chain.apply(block);
    chain.deleteAfter(0, false);
    restoring = true;
    await assert.rejects(() => chain.restoreSaved(), /killed after two restored blocks/);
    assert.deepEqual(idsOf(b), before.ids.slice(0, 2));
    assert.deepEqual(savedIDs(b), before.ids.slice(2), 'the restored blocks left the table as they were committed');
    const { node } = await restart(b);
    assert.deepEqual(snapshotOf(node), before);
    assert.ok(node.opened.tempBlocks.isEmpty());
  });

  it("killed after applying the peer's whole (better) chain, before clearing the table: the new chain is kept, the table cleared", async () => {
    const { a, b } = await forkedNodes();
    const chain = syncChainOf(b);
    chain.deleteAfter(0, true);
    for (const block of blocksOf(a, 6)) await chain.apply(block);
    assert.equal(savedIDs(b).length, 5);
    const { node, logs } = await restart(b);
    assert.deepEqual(snapshotOf(node), snapshotOf(a));
    assert.ok(node.opened.tempBlocks.isEmpty());
    assert.ok(logs.includes('Blocks temp table holds no better chain than the tip: cleared'));
  });

  it('a saved block that fails again stops the restore where it stands: logged, the node starts on what it has', async () => {
    const { b } = await forkedNodes();
    const own = idsOf(b);
    syncChainOf(b).deleteAfter(2, true);
    // the highest saved block with a state root its execution will not give (its ID changes: it has no child to break)
    const [, , top] = b.opened.tempBlocks.all();
    assert.ok(top !== undefined);
    commitWrites(b.dbs, (dbs) =>
      b.opened.tempBlocks.save(dbs, { ...top, header: { ...top.header, stateRoot: Buffer.alloc(32, 1) } }),
    );
    const { node, logs } = await restart(b);
    assert.ok(logs.includes('Restoring blocks from temporary table'));
    assert.ok(logs.includes('Failed to restore blocks from temp table upon startup'));
    assert.deepEqual(idsOf(node), own.slice(0, 4));
    assert.equal(node.opened.tempBlocks.all().length, 1, 'the block that failed stays, as in Klayr');
  });

  it('saved blocks that do not link to the chain are cleared and the chain kept', async () => {
    const { a, b } = await forkedNodes();
    const before = snapshotOf(a);
    // B's blocks 3 to 5 in A's table: their parent is not A's block at height 2
    commitWrites(a.dbs, (dbs) => {
      for (const block of blocksOf(b, 5).slice(2)) a.opened.tempBlocks.save(dbs, block);
    });
    const { node, logs } = await restart(a);
    assert.deepEqual(snapshotOf(node), before);
    assert.ok(node.opened.tempBlocks.isEmpty());
    assert.ok(logs.includes('Blocks temp table can not be restored: cleared'));
  });
});

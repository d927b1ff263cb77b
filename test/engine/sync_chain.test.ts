// The synchronizer over real chains: a devnet node switches to another's longer chain (its blocks
// deleted, the other's applied), and restores its own blocks, re-executed, when the peer serves an
// invalid block; the peer is penalised and the synchronization restarted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import type { Generator } from '../../src/engine/generator/generator.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalSignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { createSynchronizer } from '../../src/engine/sync/index.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { openDatabases } from '../../src/storage/database.js';
import { devnetGenerator } from '../helpers/generator.js';
import { PEER, peerServing } from '../helpers/serving_peer.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const config = loadConfig({ dataPath: tempDataPath() });
const BLOCK_TIME = config.genesis.blockTime;

interface Node {
  opened: OpenedChain;
  generator: Generator;
}

const devnetNode = (clock: () => number): Node => {
  const dbs = openDatabases(tempDataPath());
  const opened = openChain(config, dbs, { now: clock });
  return { opened, generator: devnetGenerator(opened, config, dbs.generator, clock) };
};

/** Blocks generated in the slots from `firstSlot`, two seconds into each. */
const generate = async (node: Node, clock: { now: number }, firstSlot: number, count: number): Promise<void> => {
  for (let slot = firstSlot; slot < firstSlot + count; slot++) {
    clock.now = slot * BLOCK_TIME + 2;
    if ((await node.generator.tick()) === undefined) throw new Error(`no block generated in slot ${slot}`);
  }
};

/** B's synchronizer; `clock` is what it reads the current slot from (block synchronization wants three rounds since finality). */
const synchronizerOf = (node: Node, peers: ReturnType<typeof peerServing>['peers'], clock: () => number) => {
  const seen = { committed: [] as string[], deleted: [] as string[] };
  const { chain, blocks, processor } = node.opened;
  const synchronizer = createSynchronizer({
    chain,
    blocks,
    processor,
    verifiers: { bls: createLocalBlsVerifier(), signatures: createLocalSignatureVerifier(chainID) },
    peers,
    logger: pino({ level: 'silent' }),
    onBlockCommitted: (executed: ExecutedBlock) =>
      seen.committed.push(blockHeaderID(executed.block.header).toString('hex')),
    onBlockDeleted: (block) => seen.deleted.push(blockHeaderID(block.header).toString('hex')),
    now: clock,
  });
  return { synchronizer, seen };
};

const idsOf = (node: Node): string[] => {
  const { chain } = node.opened;
  return Array.from({ length: chain.lastBlock().header.height }, (_, i) => {
    const header = chain.headerAt(i + 1);
    return header === undefined ? 'none' : blockHeaderID(header).toString('hex');
  });
};

/** Two devnet nodes from one genesis: A with 6 blocks from slot s+1, B with 5 of its own from slot s+2. */
const forkedNodes = async () => {
  const clock = { now: 0 };
  const now = () => clock.now;
  const a = devnetNode(now);
  const b = devnetNode(now);
  const firstSlot = Math.floor(a.opened.genesis.header.timestamp / BLOCK_TIME) + 1;
  await generate(a, clock, firstSlot, 6);
  await generate(b, clock, firstSlot + 1, 5);
  clock.now = (firstSlot + 7) * BLOCK_TIME + 1;
  // a node that has been off for more than three rounds (of 103 slots) since its finalized block: block synchronization
  const later = () => clock.now + 400 * BLOCK_TIME;
  return { a, b, now, later };
};

/** The first answer to getBlocksFromId carries its third block with its signature wiped; later answers are sound. */
const onceInvalid = () => {
  let served = 0;
  return (blocks: Block[]): Block[] => {
    served += 1;
    if (served > 1) return blocks;
    return blocks.map((block, i) =>
      i === 2 ? { ...block, header: { ...block.header, signature: Buffer.alloc(64) } } : block,
    );
  };
};

describe('synchronizer over real chains', () => {
  it("fast chain switching to the peer's longer chain: the node's blocks deleted, the peer's executed to the same state", async () => {
    const { a, b, now } = await forkedNodes();
    const own = idsOf(b);
    const { peers, penalties } = peerServing(a);
    const { synchronizer, seen } = synchronizerOf(b, peers, now);
    await synchronizer.run(a.opened.chain.lastBlock(), PEER);
    assert.deepEqual(idsOf(b), idsOf(a));
    assert.ok(b.opened.state.root.equals(a.opened.state.root));
    assert.deepEqual(seen.deleted, [...own].reverse());
    assert.deepEqual(seen.committed, idsOf(a));
    assert.deepEqual(penalties, []);
    assert.equal(synchronizer.isActive, false);
  });

  it('block synchronization: restores its own blocks (executed again) when the peer serves an invalid block, penalises the peer and restarts', async () => {
    const { a, b, later } = await forkedNodes();
    const own = idsOf(b);
    const { peers, penalties } = peerServing(a, onceInvalid());
    const { synchronizer, seen } = synchronizerOf(b, peers, later);
    await synchronizer.run(a.opened.chain.lastBlock(), PEER);
    assert.deepEqual(penalties, [{ peerId: PEER, penalty: 100 }]);
    const aIDs = idsOf(a);
    // first try: own 5 deleted, two of A's applied; then both deleted, own 5 executed again; second try: A's chain
    assert.deepEqual(seen.committed, [...aIDs.slice(0, 2), ...own, ...aIDs]);
    assert.deepEqual(seen.deleted, [...[...own].reverse(), aIDs[1], aIDs[0], ...[...own].reverse()]);
    assert.deepEqual(idsOf(b), aIDs);
    assert.ok(b.opened.state.root.equals(a.opened.state.root));
  });

  it('fast chain switching: restores its own blocks when the peer serves an invalid block, penalises the peer and stops', async () => {
    const { a, b, now } = await forkedNodes();
    const own = idsOf(b);
    const ownRoot = Buffer.from(b.opened.state.root);
    const { peers, penalties } = peerServing(a, onceInvalid());
    const { synchronizer, seen } = synchronizerOf(b, peers, now);
    await synchronizer.run(a.opened.chain.lastBlock(), PEER);
    assert.deepEqual(penalties, [{ peerId: PEER, penalty: 100 }]);
    const aIDs = idsOf(a);
    assert.deepEqual(seen.committed, [...aIDs.slice(0, 2), ...own]);
    assert.deepEqual(idsOf(b), own);
    assert.ok(b.opened.state.root.equals(ownRoot));
  });
});

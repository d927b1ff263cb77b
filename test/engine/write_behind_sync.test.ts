// Block synchronization writes its blocks behind (storage/write_behind.ts): what LMDB holds at any moment of
// the synchronization, read by an environment without the pending layer (what a kill -9 would leave), is a
// consistent prefix of the synchronized chain; at the end everything is in LMDB.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalSignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { createSynchronizer } from '../../src/engine/sync/index.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { openChain } from '../../src/main/chain_setup.js';
import { releaseCommittedReads } from '../../src/storage/committed_reads.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { readCommittedState } from '../../src/storage/state_roots.js';
import { writeBehindOf } from '../../src/storage/write_behind.js';
import { assertCommittedChain } from '../helpers/chain_consistency.js';
import { crashConfig, KEEP_HEIGHTS, provedKeys } from '../helpers/crash_config.js';
import { devnetGenerator } from '../helpers/generator.js';
import { PEER, peerServing } from '../helpers/serving_peer.js';
import { tempDataPath } from '../helpers/state.js';

/** Enough blocks for the devnet's validators to finalize some (from about 80): the synchronized commits also prune. */
const BLOCKS = 110;
const config = crashConfig(tempDataPath());
const chainID = Buffer.from(config.genesis.chainID, 'hex');
const kept = { events: KEEP_HEIGHTS, proofs: KEEP_HEIGHTS, provedKeys: provedKeys(), generated: false };

/** The chain LMDB holds, checked whole, as a restarted node would open it. */
const storedChain = (reader: KestrelDatabases, label: string) => {
  // the reader never commits: its held read transaction would still show the first check's LMDB
  releaseCommittedReads(reader);
  const opened = openChain(config, reader);
  const { tip, finalized } = assertCommittedChain(opened, reader, kept, label);
  return { tip, finalized, root: opened.state.root };
};

describe('write-behind during block synchronization', () => {
  it('LMDB holds a consistent prefix of the synchronized chain at every block, and all of it at the end', async () => {
    const clock = { now: 0 };
    const now = () => clock.now;
    const aDbs = openDatabases(tempDataPath());
    const a = openChain(config, aDbs, { now });
    const generator = devnetGenerator(a, config, aDbs.generator, now);
    const firstSlot = Math.floor(a.genesis.header.timestamp / config.genesis.blockTime) + 1;
    for (let slot = firstSlot; slot < firstSlot + BLOCKS; slot++) {
      clock.now = slot * config.genesis.blockTime + 2;
      if ((await generator.tick()) === undefined) throw new Error(`no block generated in slot ${slot}`);
    }
    const bPath = tempDataPath();
    const bDbs = openDatabases(bPath);
    const b = openChain(config, bDbs, { now });
    // what a crash would leave: the same data path opened without the pending layer
    const reader = openDatabases(bPath, { readOnly: true });
    const samples: { memory: number; stored: number; finalized: number }[] = [];
    const failures: unknown[] = [];
    const { peers, penalties } = peerServing({ opened: a });
    const synchronizer = createSynchronizer({
      chain: b.chain,
      blocks: b.blocks,
      tempBlocks: b.tempBlocks,
      processor: b.processor,
      verifiers: { bls: createLocalBlsVerifier(), signatures: createLocalSignatureVerifier(chainID) },
      peers,
      logger: pino({ level: 'silent' }),
      // a failed check would fail the block (and restart the synchronization): kept for the end instead
      onBlockCommitted: ({ block }) => {
        const memory = block.header.height;
        try {
          const stored = storedChain(reader, `after block ${memory} was committed`);
          assert.ok(stored.tip <= memory, `LMDB at ${stored.tip}, ahead of the chain at ${memory}`);
          assert.ok(stored.tip >= (samples.at(-1)?.stored ?? 0), 'LMDB never goes back');
          samples.push({ memory, stored: stored.tip, finalized: stored.finalized });
        } catch (error) {
          failures.push(error);
        }
      },
      // the verifiers here answer on this thread: in a node the loop turns while the synchronizer awaits its pools,
      // and flushes land then; here it turns after each block
      yieldBetweenBlocks: true,
      // block synchronization: the node has been off for more than three rounds of slots
      now: () => clock.now + 400 * config.genesis.blockTime,
    });
    try {
      await synchronizer.run(a.chain.lastBlock(), PEER);
      if (failures.length > 0) throw failures[0];
      assert.deepEqual(penalties, []);
      assert.equal(b.chain.lastBlock().header.height, BLOCKS);
      assert.equal(samples.length, BLOCKS);
      assert.ok(
        samples.some(({ memory, stored }) => stored < memory - 1),
        'commits were written behind: LMDB lagged the chain by more than one block',
      );
      assert.ok(
        samples.some(({ memory, stored }) => stored > 0 && stored < memory),
        'flushes landed during the synchronization',
      );
      assert.ok(
        (samples.at(-1)?.finalized ?? 0) > KEEP_HEIGHTS,
        'blocks were finalized and pruned while written behind',
      );
      // the synchronization ended: everything is in LMDB
      assert.equal(writeBehindOf(bDbs.root)?.pendingSets, 0);
      const end = storedChain(reader, 'after the synchronization');
      assert.equal(end.tip, BLOCKS);
      assert.ok(end.root.equals(a.state.root));
      assert.equal(
        blockHeaderID(b.chain.lastBlock().header).toString('hex'),
        blockHeaderID(a.chain.lastBlock().header).toString('hex'),
      );
      // commits after the synchronization are durable one by one again
      clock.now = (firstSlot + BLOCKS) * config.genesis.blockTime + 2;
      const bGenerator = devnetGenerator(b, config, bDbs.generator, now);
      assert.ok((await bGenerator.tick()) !== undefined);
      assert.equal(writeBehindOf(bDbs.root)?.pendingSets, 0);
      const transaction = bDbs.root.useReadTransaction();
      assert.equal(readCommittedState(bDbs, { transaction })?.height, BLOCKS + 1, 'in LMDB when the commit returns');
      transaction.done();
    } finally {
      await reader.root.close();
      await closeDatabases(bDbs);
      await closeDatabases(aDbs);
    }
  });
});

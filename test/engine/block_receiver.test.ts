// Blocks of one in-process devnet chain fed to another's receiver: valid ones committed, invalid
// ones refused (the sender penalised where Klayr does), forks reported, a tie-break won and lost.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { BlockReceiverOptions } from '../../src/engine/consensus/block_receiver.js';
import { BlockReceiver } from '../../src/engine/consensus/block_receiver.js';
import { ForkStatus } from '../../src/engine/consensus/fork_choice.js';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import type { Generator } from '../../src/engine/generator/generator.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalSignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID, computeAssetRoot } from '../../src/lib/chain/block.js';
import { PENALTY_BAN } from '../../src/lib/chain/p2p_penalties.js';
import { codec } from '../../src/lib/codec/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { openDatabases } from '../../src/storage/database.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetGenerator } from '../helpers/generator.js';
import { devnetKeyOf, resigned } from '../helpers/resigned_block.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const PEER = '127.0.0.2:7667';
const config = loadConfig({ dataPath: tempDataPath() });
const BLOCK_TIME = config.genesis.blockTime;

interface Node {
  opened: OpenedChain;
  generator: Generator;
  pending: TransactionObject[];
}

/** A devnet node on the shared clock, generating with every devnet validator's keys. */
const devnetNode = (clock: () => number): Node => {
  const dbs = openDatabases(tempDataPath());
  const opened = openChain(config, dbs, { now: clock });
  const pending: TransactionObject[] = [];
  const generator = devnetGenerator(opened, config, dbs.generator, clock, { candidates: () => pending.splice(0) });
  return { opened, generator, pending };
};

/** A receiver over a node's chain, recording what it reports. */
const receiverOf = (node: Node, clock: () => number, options: Partial<BlockReceiverOptions> = {}) => {
  const seen = {
    penalties: [] as { peerId: string; penalty: number }[],
    verified: [] as Block[],
    committed: [] as ExecutedBlock[],
    forked: [] as Block[],
    deleted: [] as Block[],
    syncNeeded: [] as { block: Block; peerId: string }[],
    order: [] as string[],
  };
  const { chain, processor } = node.opened;
  const receiver = new BlockReceiver({
    chain,
    processor,
    verifiers: { bls: createLocalBlsVerifier(), signatures: createLocalSignatureVerifier(chainID) },
    peers: { applyPenalty: (peerId, penalty) => seen.penalties.push({ peerId, penalty }) },
    logger: pino({ level: 'silent' }),
    now: clock,
    onBlockVerified: (block) => {
      seen.verified.push(block);
      seen.order.push('verified');
    },
    onBlockCommitted: (executed) => {
      seen.committed.push(executed);
      seen.order.push('committed');
    },
    onForked: (block) => seen.forked.push(block),
    onBlockDeleted: (block) => seen.deleted.push(block),
    onSyncNeeded: (block, peerId) => {
      seen.syncNeeded.push({ block, peerId });
    },
    ...options,
  });
  return { receiver, seen };
};

const transfer = (nonce: bigint): TransactionObject => {
  const sender = devValidators()[0];
  if (sender === undefined) throw new Error('no devnet validator');
  const base = {
    module: 'token',
    command: 'transfer',
    nonce,
    senderPublicKey: Buffer.from(sender.publicKey, 'hex'),
    params: codec.encode(transferParamsSchema, {
      tokenID: Buffer.from('0400000000000000', 'hex'),
      amount: 1000n,
      recipientAddress: randomBytes(20),
      data: '',
    }),
  };
  return signTransaction(
    { ...base, fee: computeMinFee(base), signatures: [] },
    chainID,
    Buffer.from(sender.privateKey, 'hex'),
  );
};

/**
 * The clock moved into the next slot, two seconds in: past the fifth of a slot a generator
 * leaves a missed slot's block to arrive.
 */
const nextSlot = (clock: { now: number }): void => {
  clock.now = (Math.floor(clock.now / BLOCK_TIME) + 1) * BLOCK_TIME + 2;
};

/** A node's block for the next slot. */
const nextBlock = async (node: Node, clock: { now: number }): Promise<Block> => {
  nextSlot(clock);
  const block = await node.generator.tick();
  if (block === undefined) throw new Error('no block generated');
  return block;
};

const tipOf = (node: Node) => node.opened.chain.lastBlock().header;

describe('block receiver', () => {
  it('commits valid blocks one at a time, verified (broadcast) before committed, and ignores a block it has', async () => {
    const clock = { now: 0 };
    const now = () => clock.now;
    const a = devnetNode(now);
    const b = devnetNode(now);
    clock.now = a.opened.genesis.header.timestamp;
    const { receiver, seen } = receiverOf(a, now);
    const blocks: Block[] = [];
    for (let i = 0; i < 4; i++) {
      b.pending.push(transfer(BigInt(i)));
      blocks.push(await nextBlock(b, clock));
    }
    // sent all at once, as the network may: processed in order, one at a time
    const outcomes = await Promise.all(blocks.map((block) => receiver.receive(block, PEER)));
    assert.deepEqual(
      outcomes.map((o) => [o.status, o.error?.message, o.penalized]),
      blocks.map(() => [ForkStatus.VALID_BLOCK, undefined, false]),
    );
    assert.equal(tipOf(a).height, 4);
    assert.ok(a.opened.state.root.equals(b.opened.state.root));
    assert.deepEqual(seen.order, [
      'verified',
      'committed',
      'verified',
      'committed',
      'verified',
      'committed',
      'verified',
      'committed',
    ]);
    assert.deepEqual(
      seen.committed.map((e) => e.block.transactions.length),
      [1, 1, 1, 1],
    );
    const again = await receiver.receive(blocks[3] as Block, PEER);
    assert.equal(again.status, ForkStatus.IDENTICAL_BLOCK);
    assert.equal(seen.committed.length, 4);
    assert.deepEqual(seen.penalties, []);
  });

  it('refuses invalid blocks, changing nothing: the sender is penalised for a block invalid as sent, not for one that fails executing', async () => {
    const clock = { now: 0 };
    const now = () => clock.now;
    const a = devnetNode(now);
    const b = devnetNode(now);
    clock.now = a.opened.genesis.header.timestamp;
    const { receiver, seen } = receiverOf(a, now);
    assert.equal((await receiver.receive(await nextBlock(b, clock), PEER)).status, ForkStatus.VALID_BLOCK);
    const next = await nextBlock(b, clock);
    const rootBefore = a.opened.state.root;
    const cases: { name: string; block: Block; error: RegExp; penalized: boolean }[] = [
      {
        name: 'a bad signature',
        block: { ...next, header: { ...next.header, signature: randomBytes(64) } },
        error: /Invalid signature/,
        penalized: true,
      },
      {
        name: 'an aggregate commit of a height not certified',
        block: resigned(next, { aggregateCommit: { ...next.header.aggregateCommit, height: 3 } }),
        error: /Invalid aggregateCommit/,
        penalized: true,
      },
      {
        name: 'an aggregate commit with aggregation bits and a signature for an uncertifiable height',
        block: resigned(next, {
          aggregateCommit: { height: 1, aggregationBits: Buffer.from([0xff]), certificateSignature: randomBytes(96) },
        }),
        error: /Invalid aggregateCommit/,
        penalized: true,
      },
      {
        name: 'a wrong transaction root (the block rules)',
        block: resigned(next, { transactionRoot: randomBytes(32) }),
        error: /Invalid transaction root/,
        penalized: true,
      },
      {
        name: 'a missing random asset (the modules refuse its assets)',
        block: { ...resigned(next, { assetRoot: computeAssetRoot([]) }), assets: [] },
        error: /Random module asset must exist/,
        penalized: true,
      },
      {
        // Klayr broadcasts a block before executing it, so an honest peer may relay one that fails execution
        name: 'a wrong state root (found by executing it)',
        block: resigned(next, { stateRoot: randomBytes(32) }),
        error: /State root is not valid/,
        penalized: false,
      },
      {
        name: 'a wrong event root (found by executing it)',
        block: resigned(next, { eventRoot: randomBytes(32) }),
        error: /Event root is not valid/,
        penalized: false,
      },
    ];
    for (const { name, block, error, penalized } of cases) {
      const penalties = seen.penalties.length;
      const verified = seen.verified.length;
      const outcome = await receiver.receive(block, PEER);
      assert.equal(outcome.status, ForkStatus.VALID_BLOCK, name);
      assert.match(outcome.error?.message ?? '', error, name);
      assert.equal(outcome.penalized, penalized, name);
      assert.deepEqual(
        seen.penalties.slice(penalties),
        penalized ? [{ peerId: PEER, penalty: PENALTY_BAN }] : [],
        name,
      );
      assert.equal(seen.verified.length - verified, penalized ? 0 : 1, `${name}: broadcast only once verified`);
      assert.equal(tipOf(a).height, 1, name);
      assert.ok(a.opened.state.root.equals(rootBefore), name);
    }
    assert.equal(seen.committed.length, 1);
    assert.equal((await receiver.receive(next, PEER)).status, ForkStatus.VALID_BLOCK);
    assert.equal(tipOf(a).height, 2);
  });

  it('reports blocks competing with the tip: same slot and generator (double forging), a discarded competitor, a better chain to sync', async () => {
    const clock = { now: 0 };
    const now = () => clock.now;
    const a = devnetNode(now);
    const b = devnetNode(now);
    const c = devnetNode(now);
    clock.now = a.opened.genesis.header.timestamp;
    const { receiver, seen } = receiverOf(a, now);
    const first = await nextBlock(b, clock);
    c.opened.processor.processBlock(first);
    assert.equal((await receiver.receive(first, PEER)).status, ForkStatus.VALID_BLOCK);
    const tip = await nextBlock(b, clock);
    assert.equal((await receiver.receive(tip, PEER)).status, ForkStatus.VALID_BLOCK);

    // the same validator's other block for the same slot, from node C
    c.pending.push(transfer(0n));
    const twin = await c.generator.generate(devnetKeyOf(tip.header.generatorAddress), tip.header.timestamp);
    assert.ok(!blockHeaderID(twin.header).equals(blockHeaderID(tip.header)));
    const doubleForged = await receiver.receive(twin, PEER);
    assert.equal(doubleForged.status, ForkStatus.DOUBLE_FORGING);
    assert.deepEqual(seen.forked, [twin]);

    // another validator's block for the tip's place, one slot later: the tip arrived in its slot, the competitor is discarded
    c.opened.chain.deleteLastBlock();
    nextSlot(clock);
    const competitor = await c.generator.tick();
    assert.ok(competitor !== undefined && competitor.header.height === tip.header.height);
    const discarded = await receiver.receive(competitor, PEER);
    assert.equal(discarded.status, ForkStatus.DISCARD);
    assert.equal(seen.forked.length, 2);
    assert.ok(blockHeaderID(tipOf(a)).equals(blockHeaderID(tip.header)), 'the tip stays');

    // a block two heights ahead: a better chain, to synchronize from the peer
    const ahead = await nextBlock(b, clock);
    const later = await nextBlock(b, clock);
    assert.equal(later.header.height, ahead.header.height + 1);
    const different = await receiver.receive(later, PEER);
    assert.equal(different.status, ForkStatus.DIFFERENT_CHAIN);
    assert.deepEqual(seen.syncNeeded, [{ block: later, peerId: PEER }]);
    assert.equal(seen.forked.length, 3);
    assert.equal(seen.committed.length, 2, 'nothing committed for a fork');
    assert.deepEqual(seen.penalties, []);
  });

  it('replaces a tip that arrived late with a competitor received in its own later slot (tie-break); restores the tip when the competitor fails', async () => {
    const clock = { now: 0 };
    const now = () => clock.now;
    const a = devnetNode(now);
    const b = devnetNode(now);
    const c = devnetNode(now);
    clock.now = a.opened.genesis.header.timestamp;
    const { receiver, seen } = receiverOf(a, now);
    const first = await nextBlock(b, clock);
    c.opened.processor.processBlock(first);
    await receiver.receive(first, PEER);
    // B's block for the next slot reaches A one slot late
    b.pending.push(transfer(0n));
    const late = await nextBlock(b, clock);
    nextSlot(clock);
    assert.equal((await receiver.receive(late, PEER)).status, ForkStatus.VALID_BLOCK);
    // C, not having B's block, generates for the same height in that later slot
    const competitor = await c.generator.tick();
    assert.ok(competitor !== undefined && competitor.header.height === late.header.height);

    // a failing competitor: the late tip is deleted, the competitor refused, the tip applied again
    const failing = resigned(competitor, { stateRoot: randomBytes(32) });
    const lost = await receiver.receive(failing, PEER);
    assert.equal(lost.status, ForkStatus.TIE_BREAK);
    assert.match(lost.error?.message ?? '', /State root is not valid/);
    assert.equal(lost.penalized, false);
    assert.deepEqual(seen.deleted, [late]);
    assert.ok(blockHeaderID(tipOf(a)).equals(blockHeaderID(late.header)), 'the late tip restored');
    assert.equal(seen.committed.at(-1)?.block.transactions.length, 1);

    // the restored tip keeps its late arrival: the valid competitor wins the tie-break
    const won = await receiver.receive(competitor, PEER);
    assert.equal(won.status, ForkStatus.TIE_BREAK);
    assert.equal(won.error, undefined);
    assert.ok(blockHeaderID(tipOf(a)).equals(blockHeaderID(competitor.header)));
    assert.ok(a.opened.state.root.equals(c.opened.state.root));
    assert.equal(seen.deleted.length, 2);
    assert.equal(seen.forked.length, 2);
    assert.deepEqual(seen.penalties, []);
  });

  it('ignores blocks while syncing and after stop', async () => {
    const clock = { now: 0 };
    const now = () => clock.now;
    const a = devnetNode(now);
    const b = devnetNode(now);
    clock.now = a.opened.genesis.header.timestamp;
    let syncing = true;
    const { receiver, seen } = receiverOf(a, now, { syncing: () => syncing });
    const block = await nextBlock(b, clock);
    assert.deepEqual(await receiver.receive(block, PEER), { penalized: false });
    syncing = false;
    assert.equal((await receiver.receive(block, PEER)).status, ForkStatus.VALID_BLOCK);
    await receiver.stop();
    assert.deepEqual(await receiver.receive(await nextBlock(b, clock), PEER), { penalized: false });
    assert.equal(seen.committed.length, 1);
  });
});

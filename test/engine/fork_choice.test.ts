// Differential test: klayr-framework's forkChoice and Kestrel's on generated header pairs.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { BFTMethod } from '../../src/engine/bft/index.js';
import { ForkStatus, forkChoice } from '../../src/engine/consensus/fork_choice.js';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { klayrChain } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const require = createRequire(import.meta.url);
interface KlayrHeader {
  toObject(): Record<string, unknown>;
}
const klayrForkChoice = require('klayr-framework/dist-node/engine/consensus/fork_choice/fork_choice_rule') as {
  forkChoice(received: KlayrHeader, tip: Record<string, unknown>, slots: unknown): number;
};
const { BFTMethod: KlayrBFTMethod } = require('klayr-framework/dist-node/engine/bft/method') as {
  BFTMethod: new () => { init(batchSize: number, blockTime: number): void };
};

const BLOCK_TIME = 10;
const BASE_SLOT = 170_000_000;

const header = (rng: Rng, fields: Partial<BlockHeader> = {}): BlockHeader => ({
  version: 2,
  timestamp: (BASE_SLOT + rng.int(4)) * BLOCK_TIME + rng.pick([0, 1, BLOCK_TIME - 1]),
  height: 100 + rng.int(4),
  previousBlockID: rng.pick(PREVIOUS_IDS),
  generatorAddress: rng.pick(GENERATORS),
  transactionRoot: Buffer.alloc(32, 1),
  assetRoot: Buffer.alloc(32, 2),
  eventRoot: Buffer.alloc(32, 3),
  stateRoot: Buffer.alloc(32, 4),
  maxHeightPrevoted: 90 + rng.int(3),
  maxHeightGenerated: 0,
  impliesMaxPrevotes: true,
  validatorsHash: Buffer.alloc(32, 5),
  aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
  signature: rng.bytes(64),
  ...fields,
});
const PREVIOUS_IDS = [Buffer.alloc(32, 0xa1), Buffer.alloc(32, 0xa2)];
const GENERATORS = [Buffer.alloc(20, 0xb1), Buffer.alloc(20, 0xb2)];

/** A received header related to the tip in one of the ways the rule tells apart. */
const receivedFor = (rng: Rng, tip: BlockHeader): BlockHeader => {
  switch (rng.int(5)) {
    case 0:
      return { ...tip };
    case 1:
      return header(rng, { height: tip.height + 1, previousBlockID: blockHeaderID(tip) });
    case 2:
      // a competitor for the tip's place, in the same or a later slot
      return header(rng, {
        height: tip.height,
        previousBlockID: tip.previousBlockID,
        maxHeightPrevoted: tip.maxHeightPrevoted,
        timestamp: tip.timestamp + rng.pick([0, 1, BLOCK_TIME, 2 * BLOCK_TIME]),
      });
    default:
      return header(rng);
  }
};

/** A received time in, before or after a header's slot (unix seconds). */
const timeAround = (rng: Rng, h: BlockHeader): number =>
  Math.floor(h.timestamp / BLOCK_TIME) * BLOCK_TIME + rng.pick([0, 1, BLOCK_TIME - 1, BLOCK_TIME, 2 * BLOCK_TIME, -1]);

const klayrHeader = (h: BlockHeader): KlayrHeader => new klayrChain.BlockHeader(h);

describe('fork choice rule against klayr-framework', () => {
  it('gives the same verdict on generated header pairs, received times in and out of their slots', () => {
    const rng = new Rng(14);
    const kestrelSlots = new BFTMethod({ batchSize: 103, blockTime: BLOCK_TIME });
    const klayrSlots = new KlayrBFTMethod();
    klayrSlots.init(103, BLOCK_TIME);
    const seen = new Set<number>();
    const realNow = Date.now;
    try {
      for (let i = 0; i < 5000; i++) {
        const tip = header(rng);
        const received = receivedFor(rng, tip);
        const receivedAt = timeAround(rng, received);
        const tipReceivedAt = rng.pick([undefined, 0, timeAround(rng, tip)]);
        const klayrTip = {
          ...klayrHeader(tip).toObject(),
          ...(tipReceivedAt === undefined ? {} : { receivedAt: tipReceivedAt }),
        };
        Date.now = () => receivedAt * 1000 + rng.int(1000);
        const expected = klayrForkChoice.forkChoice(klayrHeader(received), klayrTip, klayrSlots);
        Date.now = realNow;
        const actual = forkChoice(
          { header: received, receivedAt },
          tipReceivedAt === undefined ? { header: tip } : { header: tip, receivedAt: tipReceivedAt },
          kestrelSlots,
        );
        assert.equal(actual, expected, `pair ${i}`);
        seen.add(actual);
      }
    } finally {
      Date.now = realNow;
    }
    assert.deepEqual(
      [...seen].sort(),
      Object.values(ForkStatus).sort(),
      'every verdict occurs among the generated pairs',
    );
  });

  it('reads a missing received time of the received block as now', () => {
    const rng = new Rng(3);
    const slots = new BFTMethod({ batchSize: 103, blockTime: BLOCK_TIME });
    const tip = header(rng, { timestamp: BASE_SLOT * BLOCK_TIME });
    const received = { ...tip, generatorAddress: Buffer.alloc(20, 0xcc), timestamp: (BASE_SLOT + 1) * BLOCK_TIME };
    const lateTip = { header: tip, receivedAt: (BASE_SLOT + 1) * BLOCK_TIME };
    assert.equal(forkChoice({ header: received }, lateTip, slots, received.timestamp + 1), ForkStatus.TIE_BREAK);
    assert.equal(
      forkChoice({ header: received }, lateTip, slots, received.timestamp + BLOCK_TIME),
      ForkStatus.DISCARD,
      'the competitor came late too',
    );
  });
});

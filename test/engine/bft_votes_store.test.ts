import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bftVotesSchema } from '../../src/engine/bft/schemas.js';
import { bftVotesStore, readBFTVotes, readBFTVotesShared, writeBFTVotes } from '../../src/engine/bft/stores.js';
import type { BFTVotes } from '../../src/engine/bft/types.js';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { compile } from '../../src/lib/codec/index.js';

const EMPTY_KEY = Buffer.alloc(0);
const codec = compile<BFTVotes>(bftVotesSchema);

const votesAt = (height: number): BFTVotes => ({
  maxHeightPrevoted: height - 2,
  maxHeightPrecommitted: height - 3,
  maxHeightCertified: height - 10,
  blockBFTInfos: [0, 1, 2].map((i) => ({
    height: height - i,
    generatorAddress: Buffer.alloc(20, i + 1),
    maxHeightGenerated: height - i - 1,
    maxHeightPrevoted: height - i - 2,
    prevoteWeight: BigInt(100 + i),
    precommitWeight: BigInt(50 + i),
  })),
  activeValidatorsVoteInfo: [1, 2].map((i) => ({
    address: Buffer.alloc(20, i),
    minActiveHeight: i,
    largestHeightPrecommit: height - i,
  })),
});

describe('BFT votes record (engine/bft/stores.ts)', () => {
  it('reads back what was written, as a decode of its bytes gives it, whichever state holds the bytes', () => {
    const state = new BlockState(EMPTY_STATE);
    const votes = votesAt(100);
    writeBFTVotes(state, votes);
    const bytes = bftVotesStore(state).get(EMPTY_KEY) as Buffer;
    assert.deepEqual(bytes, codec.encode(votes));
    assert.deepEqual(readBFTVotes(state), codec.decode(bytes));
    assert.deepEqual(readBFTVotesShared(state), codec.decode(bytes));
    // another state with the same bytes, and one with other bytes written directly
    const other = new BlockState(EMPTY_STATE);
    bftVotesStore(other).set(EMPTY_KEY, Buffer.from(bytes));
    assert.deepEqual(readBFTVotes(other), votes);
    const older = new BlockState(EMPTY_STATE);
    bftVotesStore(older).set(EMPTY_KEY, codec.encode(votesAt(50)));
    assert.deepEqual(readBFTVotes(older), votesAt(50));
    assert.deepEqual(readBFTVotesShared(older), votesAt(50));
  });

  it('neither the writer nor a reader changing its value changes what is read next', () => {
    const state = new BlockState(EMPTY_STATE);
    const votes = votesAt(200);
    writeBFTVotes(state, votes);
    votes.maxHeightPrevoted = 1;
    (votes.blockBFTInfos[0] as { prevoteWeight: bigint }).prevoteWeight = 0n;
    votes.activeValidatorsVoteInfo.pop();
    const read = readBFTVotes(state);
    assert.deepEqual(read, votesAt(200));
    read.blockBFTInfos[1].maxHeightPrevoted = 0;
    read.blockBFTInfos.push({ ...votesAt(1).blockBFTInfos[0] });
    assert.deepEqual(readBFTVotes(state), votesAt(200));
    const shared = readBFTVotesShared(state);
    assert.deepEqual(shared, votesAt(200));
    assert.equal(readBFTVotesShared(state), shared, 'the readers that only read share one value');
    const own = readBFTVotes(state);
    own.blockBFTInfos.length = 0;
    assert.deepEqual(readBFTVotesShared(state), votesAt(200), "a writer's own value is not the shared one");
  });
});

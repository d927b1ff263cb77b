import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bftVotesSchema } from '../../src/engine/bft/schemas.js';
import type { BFTVotes } from '../../src/engine/bft/types.js';
import { CodecError, compile, LastWritten } from '../../src/lib/codec/index.js';
import type { ValidatorReveal } from '../../src/modules/random/stores.js';
import { seedRevealSchema } from '../../src/modules/random/stores.js';

interface Value {
  validatorReveals: ValidatorReveal[];
}

const codec = compile<Value>(seedRevealSchema);
const copy = ({ validatorReveals }: Value): Value => ({
  validatorReveals: validatorReveals.map((reveal) => ({ ...reveal })),
});
const value = (n: number): Value => ({
  validatorReveals: Array.from({ length: n }, (_, i) => ({
    generatorAddress: Buffer.alloc(20, i),
    seedReveal: Buffer.alloc(16, i + 1),
    height: i * 7,
    valid: i % 2 === 0,
  })),
});

describe('LastWritten (lib/codec/last_written.ts)', () => {
  it('the bytes last written read back as their decode would give them; other bytes are decoded', () => {
    const memo = new LastWritten<Value>(codec, copy);
    const bytes = memo.encode(value(5));
    assert.deepEqual(bytes, codec.encode(value(5)));
    assert.deepEqual(memo.decode(Buffer.from(bytes)), codec.decode(bytes));
    assert.deepEqual(memo.copyOf(Buffer.from(bytes)), codec.decode(bytes));
    const other = codec.encode(value(3));
    assert.deepEqual(memo.decode(other), value(3));
    assert.equal(memo.copyOf(other), undefined);
  });

  it('changes to the written value or to a copy read never reach the next read', () => {
    const memo = new LastWritten<Value>(codec, copy);
    const written = value(4);
    const bytes = memo.encode(written);
    written.validatorReveals[0].height = 1;
    written.validatorReveals.pop();
    const read = memo.decode(bytes);
    assert.deepEqual(read, value(4));
    read.validatorReveals[1].valid = !read.validatorReveals[1].valid;
    read.validatorReveals.push(value(1).validatorReveals[0]);
    assert.deepEqual(memo.decode(bytes), value(4));
    const again = memo.copyOf(bytes);
    assert.ok(again !== undefined && again !== read && again.validatorReveals[0] !== read.validatorReveals[0]);
  });

  it('readers that only read share one copy of the last write; a writer still decodes its own, and a new write is read anew', () => {
    const memo = new LastWritten<Value>(codec, copy);
    const written = value(3);
    const bytes = memo.encode(written);
    const shared = memo.sharedOf(Buffer.from(bytes));
    assert.deepEqual(shared, value(3));
    assert.equal(memo.sharedOf(bytes), shared, 'one value for every reader');
    written.validatorReveals[0]!.height = 99;
    const own = memo.decode(bytes);
    own.validatorReveals[1]!.height = 98;
    assert.deepEqual(memo.sharedOf(bytes), value(3), "neither the writer's value nor a decoded copy is the shared one");
    assert.equal(memo.sharedOf(codec.encode(value(2))), undefined);
    const next = memo.encode(own);
    assert.notEqual(memo.sharedOf(next), shared);
    assert.equal(memo.sharedOf(next)?.validatorReveals[1]?.height, 98);
    assert.equal(memo.sharedOf(bytes), undefined, 'the bytes written before are no longer the last');
  });

  it("600 blocks of BFT votes read back, changed in place and written: each write the codec's bytes, each read the value written", () => {
    const votesCodec = compile<BFTVotes>(bftVotesSchema);
    const copyVotes = (v: BFTVotes): BFTVotes => ({
      ...v,
      blockBFTInfos: v.blockBFTInfos.map((info) => ({ ...info })),
      activeValidatorsVoteInfo: v.activeValidatorsVoteInfo.map((info) => ({ ...info })),
    });
    const memo = new LastWritten<BFTVotes>(votesCodec, copyVotes);
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const validators = (round: number) =>
      Array.from({ length: 5 + (round % 3) }, (_, i) => ({
        address: Buffer.alloc(20, round * 10 + i),
        minActiveHeight: round,
        largestHeightPrecommit: 0,
      }));
    let votes: BFTVotes = {
      maxHeightPrevoted: 0,
      maxHeightPrecommitted: 0,
      maxHeightCertified: 0,
      blockBFTInfos: [],
      activeValidatorsVoteInfo: validators(0),
    };
    let bytes = memo.encode(votes);
    for (let height = 1; height <= 600; height++) {
      // as a block does: the record read back, changed in place, written again
      votes = memo.decode(bytes);
      votes.blockBFTInfos.unshift({
        height,
        generatorAddress: Buffer.alloc(20, height % 7),
        maxHeightGenerated: height - 1 - random(5),
        maxHeightPrevoted: votes.maxHeightPrevoted,
        prevoteWeight: 0n,
        precommitWeight: 0n,
      });
      while (votes.blockBFTInfos.length > 30) votes.blockBFTInfos.pop();
      for (const info of votes.blockBFTInfos.slice(0, random(12))) info.prevoteWeight += BigInt(1 + random(3));
      const voter = votes.activeValidatorsVoteInfo[random(votes.activeValidatorsVoteInfo.length)];
      if (voter !== undefined) voter.largestHeightPrecommit = height - random(3);
      if (random(10) === 0) votes.blockBFTInfos.splice(random(votes.blockBFTInfos.length), 1);
      if (random(15) === 0) votes.blockBFTInfos.reverse();
      if (random(20) === 0) votes.activeValidatorsVoteInfo = validators(height);
      if (random(25) === 0) votes.blockBFTInfos = [];
      votes.maxHeightPrevoted = Math.max(0, height - 2 - random(3));
      // a later change to the writer's value (or to a shared buffer's holder) must not reach the bytes
      bytes = memo.encode(votes);
      assert.equal(bytes.toString('hex'), votesCodec.encode(votes).toString('hex'), `height ${height}`);
      assert.deepEqual(memo.decode(Buffer.from(bytes)), votes, `height ${height}`);
      const first = votes.blockBFTInfos[0];
      if (first !== undefined) {
        first.precommitWeight += 100n;
        assert.notDeepEqual(memo.decode(bytes), votes);
      }
    }
  });

  it('a value the codec refuses throws its error, and the next write is encoded as usual', () => {
    const memo = new LastWritten<Value>(codec, copy);
    memo.encode(value(3));
    const bad = value(3);
    (bad.validatorReveals[1] as unknown as { height: number | string }).height = 'x';
    assert.throws(
      () => memo.encode(bad),
      (e: unknown) => e instanceof CodecError && /at \.validatorReveals\.height\)/.test((e as Error).message),
    );
    assert.throws(() => memo.encode({ validatorReveals: 5 } as unknown as Value), /array/);
    const bytes = memo.encode(value(4));
    assert.deepEqual(bytes, codec.encode(value(4)));
    assert.deepEqual(memo.decode(bytes), value(4));
  });
});

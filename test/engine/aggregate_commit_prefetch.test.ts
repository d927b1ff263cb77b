import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BFTMethod } from '../../src/engine/bft/index.js';
import { BFTParameterNotFoundError } from '../../src/engine/bft/index.js';
import type { BlockStore } from '../../src/engine/chain/block_store.js';
import { AggregateCommitVerifier } from '../../src/engine/consensus/aggregate_commit.js';
import type { BlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import type { BlockState } from '../../src/engine/state/state_db.js';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import type { WeightedAggregateRequest } from '../../src/lib/crypto/bls_key_cache.js';
import { blockAt, chainFrom } from '../helpers/sync_fakes.js';

const engine = {} as BlockState;

/** A chain of 10 headers, the validators' hash at a height of the test's choosing, and a verifier that counts and answers. */
const world = () => {
  const stored = chainFrom([], 10, 1).map((b) => b.header);
  const validators = { hash: Buffer.alloc(32, 7), knownUpTo: 8 };
  const heights = { maxHeightCertified: 2, maxHeightPrecommitted: 9, maxHeightPrevoted: 9 };
  const bft = {
    getBFTHeights: () => heights,
    getNextHeightBFTParameters: () => {
      throw new BFTParameterNotFoundError();
    },
    getBFTParametersActiveValidators: (_state: unknown, height: number) => {
      if (height > validators.knownUpTo) throw new BFTParameterNotFoundError();
      return {
        validators: [
          { address: Buffer.alloc(20), blsKey: Buffer.alloc(48, 1), bftWeight: 1n, generatorKey: Buffer.alloc(32) },
        ],
        certificateThreshold: 1n,
        precommitThreshold: 1n,
        prevoteThreshold: 1n,
        validatorsHash: validators.hash,
      };
    },
  } as unknown as BFTMethod;
  const blocks = {
    headerByHeight: (h: number) => stored[h],
  } as unknown as BlockStore;
  const requests: WeightedAggregateRequest[] = [];
  const verdicts = { next: true };
  const verifier = {
    verifyAggregate: async (request: WeightedAggregateRequest) => {
      requests.push(request);
      return verdicts.next;
    },
  } as unknown as BlsVerifier;
  const commits = new AggregateCommitVerifier({
    bft,
    blocks,
    chainID: Buffer.from('04000000', 'hex'),
    minimumCertifyHeight: 1,
  });
  return { stored, validators, heights, commits, verifier, requests, verdicts };
};

/** A header at `height` whose aggregate commit certifies `certified` with `signatureByte`. */
const committing = (height: number, certified: number, signatureByte = 1): BlockHeader => ({
  ...blockAt(height, 2, Buffer.alloc(32)).header,
  aggregateCommit: {
    height: certified,
    aggregationBits: Buffer.from([1]),
    certificateSignature: Buffer.alloc(96, signatureByte),
  },
});

describe('aggregate commits prefetched during a synchronization', () => {
  it('a prefetched check answers the block that asks for the very same one: the signature is checked once', async () => {
    const { commits, verifier, requests } = world();
    const header = committing(11, 5);
    commits.prefetch(engine, [header], verifier);
    assert.equal(requests.length, 1, 'started at prefetch');
    assert.equal(await commits.verifyBy(engine, header.aggregateCommit, verifier), true);
    assert.equal(requests.length, 1, 'not checked again');
    // used once: a second ask checks again
    assert.equal(await commits.verifyBy(engine, header.aggregateCommit, verifier), true);
    assert.equal(requests.length, 2);
  });

  it('a prefetched false verdict refuses the commit', async () => {
    const { commits, verifier, verdicts } = world();
    verdicts.next = false;
    const header = committing(11, 5, 9);
    commits.prefetch(engine, [header], verifier);
    verdicts.next = true;
    assert.equal(await commits.verifyBy(engine, header.aggregateCommit, verifier), false);
  });

  it('validators changed since the prefetch: the prefetched check is not used, the commit is checked again', async () => {
    const { commits, verifier, requests, validators } = world();
    const header = committing(11, 5);
    commits.prefetch(engine, [header], verifier);
    validators.hash = Buffer.alloc(32, 8);
    await commits.verifyBy(engine, header.aggregateCommit, verifier);
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[1]!.keySetID, Buffer.alloc(32, 8));
  });

  it('the rules are checked again at the block: a prefetched true does not pass a commit of a height already certified', async () => {
    const { commits, verifier, heights } = world();
    const header = committing(11, 5);
    commits.prefetch(engine, [header], verifier);
    heights.maxHeightCertified = 5;
    assert.equal(await commits.verifyBy(engine, header.aggregateCommit, verifier), false);
  });

  it('certifies a block of the same batch (not stored yet) by its header, and skips heights without known validators or blocks', async () => {
    const { commits, verifier, requests } = world();
    const batch = chainFrom([], 12, 3)
      .map((b) => b.header)
      .slice(11);
    const inBatch = { ...batch[0]!, height: 7 };
    commits.prefetch(engine, [inBatch, committing(12, 7), committing(13, 9), committing(14, 40)], verifier);
    assert.equal(requests.length, 1, 'height 9: no validators known; height 40: no block');
    assert.equal(await commits.verifyBy(engine, committing(12, 7).aggregateCommit, verifier), true);
    assert.equal(requests.length, 2, 'the stored block at 7 is another: its certificate differs, checked again');
  });

  it("certifies a block of the batch before (still executing, not stored) by that batch's header", async () => {
    const { commits, verifier, requests, stored, validators, heights } = world();
    validators.knownUpTo = 14;
    heights.maxHeightPrecommitted = 14;
    // heights 11-12 are the batch executing now, 13-14 the next one, whose commits certify 11 and 12
    const executing = [committing(11, 3), committing(12, 4)];
    commits.prefetch(engine, executing, verifier);
    assert.equal(requests.length, 2);
    const next = [committing(13, 11), committing(14, 12)];
    commits.prefetch(engine, next, verifier);
    assert.equal(requests.length, 4, 'both certified blocks found in the batch before');
    // once applied, the chain holds those blocks: the checks at the blocks are the prefetched ones
    stored[11] = executing[0]!;
    stored[12] = executing[1]!;
    for (const header of next) assert.equal(await commits.verifyBy(engine, header.aggregateCommit, verifier), true);
    assert.equal(requests.length, 4, 'not checked again');
  });

  it('an empty commit is never prefetched; clearPrefetched forgets what was', async () => {
    const { commits, verifier, requests } = world();
    const empty = {
      ...committing(11, 2),
      aggregateCommit: { height: 2, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    };
    const header = committing(12, 5);
    commits.prefetch(engine, [empty, header], verifier);
    assert.equal(requests.length, 1);
    commits.clearPrefetched();
    await commits.verifyBy(engine, header.aggregateCommit, verifier);
    assert.equal(requests.length, 2);
  });
});

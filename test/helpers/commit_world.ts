// A chain's BFT view for commit pool tests, served alike to Kestrel's CommitPool and to
// klayr-framework's (the oracle): headers by height, BFT heights, validator sets by height.
import { createRequire } from 'node:module';
import type { BFTParameters, BFTValidator } from '../../src/engine/bft/index.js';
import { BFTParameterNotFoundError } from '../../src/engine/bft/index.js';
import type { CommitPoolChain } from '../../src/engine/consensus/commit_pool.js';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { signCertificate, unsignedCertificateOf } from '../../src/lib/chain/certificate.js';
import type { SingleCommit } from '../../src/lib/chain/single_commit.js';
import { blsKeyGen, blsPublicKeyFromPrivateKey } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { klayrChain } from './klayr.js';
import type { Rng } from './random.js';

const require = createRequire(import.meta.url);
const KlayrBFTParameterNotFoundError = (
  require('klayr-framework/dist-node/engine/bft/errors') as { BFTParameterNotFoundError: new () => Error }
).BFTParameterNotFoundError;

export const WORLD_CHAIN_ID = Buffer.from('04000000', 'hex');

export interface WorldValidator extends BFTValidator {
  blsPrivateKey: Buffer;
}

export interface CommitWorld {
  validators: WorldValidator[];
  /** Index = height. */
  headers: BlockHeader[];
  maxHeightPrevoted: number;
  maxHeightPrecommitted: number;
  maxHeightCertified: number;
  finalizedHeight: number;
  minCertifyHeight: number;
  /** Heights at which validator sets are stored, with the indexes of the validators active from there. */
  sets: Map<number, number[]>;
}

export const worldValidators = (count: number, seed: number): WorldValidator[] =>
  Array.from({ length: count }, (_, i) => {
    const blsPrivateKey = blsKeyGen(sha256(Buffer.from(`commit world ${seed} ${i}`)));
    return {
      address: sha256(Buffer.from(`address ${seed} ${i}`)).subarray(0, 20),
      bftWeight: 1n,
      generatorKey: sha256(Buffer.from(`generator ${seed} ${i}`)),
      blsKey: blsPublicKeyFromPrivateKey(blsPrivateKey),
      blsPrivateKey,
    };
  });

export const worldHeader = (rng: Rng, height: number, certifiedHeight = 0): BlockHeader => ({
  version: 2,
  timestamp: 1_700_000_000 + height * 10,
  height,
  previousBlockID: rng.bytes(32),
  generatorAddress: rng.bytes(20),
  transactionRoot: rng.bytes(32),
  assetRoot: rng.bytes(32),
  eventRoot: rng.bytes(32),
  stateRoot: rng.bytes(32),
  maxHeightPrevoted: 0,
  maxHeightGenerated: 0,
  impliesMaxPrevotes: true,
  validatorsHash: rng.bytes(32),
  aggregateCommit: { height: certifiedHeight, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
  signature: rng.bytes(64),
});

/** The validators active at a height: the set stored at the greatest height not above it. */
export const parametersAt = (world: CommitWorld, height: number): BFTParameters | undefined => {
  const from = Math.max(...[...world.sets.keys()].filter((h) => h <= height));
  const set = world.sets.get(from);
  if (set === undefined) return undefined;
  const validators = set.flatMap((i) => {
    const v = world.validators[i];
    return v === undefined
      ? []
      : [{ address: v.address, bftWeight: v.bftWeight, generatorKey: v.generatorKey, blsKey: v.blsKey }];
  });
  const total = validators.reduce((s, v) => s + v.bftWeight, 0n);
  const threshold = (2n * total) / 3n + 1n;
  return {
    prevoteThreshold: threshold,
    precommitThreshold: threshold,
    certificateThreshold: threshold,
    validators,
    validatorsHash: Buffer.alloc(32),
  };
};

const nextSetHeight = (world: CommitWorld, height: number): number | undefined => {
  const above = [...world.sets.keys()].filter((h) => h > height);
  return above.length === 0 ? undefined : Math.min(...above);
};

const maxRemovalHeight = (world: CommitWorld): number =>
  Math.max(world.headers[world.finalizedHeight]?.aggregateCommit.height ?? 0, world.minCertifyHeight - 1);

/** Kestrel's view of the world (what CommitPool reads of Chain). */
export const kestrelWorldChain = (world: CommitWorld): CommitPoolChain => ({
  bft: {
    getBFTHeights: () => ({
      maxHeightPrevoted: world.maxHeightPrevoted,
      maxHeightPrecommitted: world.maxHeightPrecommitted,
      maxHeightCertified: world.maxHeightCertified,
    }),
    existBFTParameters: (_state, height) => world.sets.has(height),
    getBFTParametersActiveValidators: (_state, height) => {
      const params = parametersAt(world, height);
      if (params === undefined) throw new BFTParameterNotFoundError(height);
      return { ...params, validators: params.validators.filter((v) => v.bftWeight > 0n) };
    },
    getNextHeightBFTParameters: (_state, height) => {
      const next = nextSetHeight(world, height);
      if (next === undefined) throw new BFTParameterNotFoundError(height + 1);
      return next;
    },
  },
  lastBlock: () => {
    const header = world.headers.at(-1);
    if (header === undefined) throw new Error('empty world');
    return { header, transactions: [], assets: [] };
  },
  headerAt: (height) => world.headers[height],
  maxRemovalHeight: () => maxRemovalHeight(world),
  engineView: () => new BlockState(EMPTY_STATE),
});

/** klayr-framework's bftMethod and chain over the same world. */
export const klayrWorld = (world: CommitWorld) => {
  const klayrHeader = (height: number) => {
    const header = world.headers[height];
    if (header === undefined) throw new Error(`No block at height ${height}`);
    return new klayrChain.BlockHeader(header);
  };
  return {
    bftMethod: {
      getBFTHeights: async () => ({
        maxHeightPrevoted: world.maxHeightPrevoted,
        maxHeightPrecommitted: world.maxHeightPrecommitted,
        maxHeightCertified: world.maxHeightCertified,
      }),
      existBFTParameters: async (_ctx: unknown, height: number) => world.sets.has(height),
      getBFTParametersActiveValidators: async (_ctx: unknown, height: number) => {
        const params = parametersAt(world, height);
        if (params === undefined) throw new KlayrBFTParameterNotFoundError();
        return { ...params, validators: params.validators.filter((v) => v.bftWeight > 0n) };
      },
      getNextHeightBFTParameters: async (_ctx: unknown, height: number) => {
        const next = nextSetHeight(world, height);
        if (next === undefined) throw new KlayrBFTParameterNotFoundError();
        return next;
      },
    },
    chain: {
      chainID: WORLD_CHAIN_ID,
      get lastBlock() {
        return { header: klayrHeader(world.headers.length - 1) };
      },
      get finalizedHeight() {
        return world.finalizedHeight;
      },
      dataAccess: { getBlockHeaderByHeight: async (height: number) => klayrHeader(height) },
    },
  };
};

/** A validator's commit of the block at a height, correctly signed. */
export const signedCommit = (world: CommitWorld, validator: WorldValidator, height: number): SingleCommit => {
  const header = world.headers[height];
  if (header === undefined) throw new Error(`No block at height ${height}`);
  return {
    blockID: blockHeaderID(header),
    height,
    validatorAddress: validator.address,
    certificateSignature: signCertificate(validator.blsPrivateKey, WORLD_CHAIN_ID, unsignedCertificateOf(header)),
  };
};

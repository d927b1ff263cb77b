import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { CommitPool } from '../../src/engine/consensus/commit_pool.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { PENALTY_BAN } from '../../src/lib/chain/p2p_penalties.js';
import type { SingleCommit } from '../../src/lib/chain/single_commit.js';
import {
  decodeSingleCommit,
  encodeSingleCommitsPacket,
  NETWORK_EVENT_COMMIT_MESSAGES,
  singleCommitSchema,
  singleCommitsNetworkPacketSchema,
} from '../../src/lib/chain/single_commit.js';
import { codec } from '../../src/lib/codec/index.js';
import type { CommitWorld } from '../helpers/commit_world.js';
import {
  kestrelWorldChain,
  klayrWorld,
  signedCommit,
  WORLD_CHAIN_ID,
  worldHeader,
  worldValidators,
} from '../helpers/commit_world.js';
import { klayrCodec } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const require = createRequire(import.meta.url);
interface KlayrCommitPool {
  validateCommit(ctx: unknown, commit: SingleCommit): Promise<boolean>;
  addCommit(commit: SingleCommit, local?: boolean): void;
  getAggregateCommit(ctx: unknown): Promise<{ height: number; aggregationBits: Buffer; certificateSignature: Buffer }>;
  _job(ctx: unknown): Promise<void>;
}
const { CommitPool: KlayrCommitPool } =
  require('klayr-framework/dist-node/engine/consensus/certificate_generation/commit_pool') as {
    CommitPool: new (config: Record<string, unknown>) => KlayrCommitPool;
  };
const klayrSchemas = require('klayr-framework/dist-node/engine/consensus/certificate_generation/schema') as Record<
  string,
  object
>;

/**
 * 250 blocks, 200 precommitted and final, the final block certifying 40: commits above 40 may
 * be kept, those of 100..250 in range. Validators 0-2 are active from height 1 (a set stored
 * again at 81), 1-3 from 150.
 */
const world = (seed = 1): CommitWorld => {
  const rng = new Rng(seed);
  const w: CommitWorld = {
    validators: worldValidators(4, seed),
    headers: [],
    maxHeightPrevoted: 220,
    maxHeightPrecommitted: 200,
    maxHeightCertified: 40,
    finalizedHeight: 200,
    minCertifyHeight: 1,
    sets: new Map([
      [1, [0, 1, 2]],
      [81, [0, 1, 2]],
      [150, [1, 2, 3]],
    ]),
  };
  for (let height = 0; height <= 250; height++) w.headers.push(worldHeader(rng, height, height === 200 ? 40 : 0));
  return w;
};

const validator = (w: CommitWorld, i: number) => {
  const v = w.validators[i];
  if (v === undefined) throw new Error(`no validator ${i}`);
  return v;
};

const poolOver = (w: CommitWorld, send?: (event: string, data: Buffer) => void) =>
  new CommitPool({
    chain: kestrelWorldChain(w),
    chainID: WORLD_CHAIN_ID,
    minCertifyHeight: w.minCertifyHeight,
    bls: createLocalBlsVerifier(),
    logger: pino({ level: 'silent' }),
    ...(send === undefined ? {} : { send }),
  });

const decodePacket = (data: Buffer): SingleCommit[] =>
  klayrCodec.codec
    .decode(klayrSchemas.singleCommitsNetworkPacketSchema, data)
    .commits.map((c: Buffer) => klayrCodec.codec.decode(klayrSchemas.singleCommitSchema, c));

const describeCommit = (c: SingleCommit) => `${c.height}:${c.validatorAddress.toString('hex').slice(0, 6)}`;

const fakePeers = () => {
  const penalties: { peerId: string; penalty: number }[] = [];
  return {
    penalties,
    peers: { applyPenalty: (peerId: string, penalty: number) => penalties.push({ peerId, penalty }) },
  };
};

describe('commit pool: validateCommit', () => {
  const w = world();
  const pool = poolOver(w);

  it('accepts a commit in range, signed by a validator active at its height', async () => {
    assert.equal(await pool.validateCommit(signedCommit(w, validator(w, 2), 175)), true);
    assert.equal(await pool.validateCommit(signedCommit(w, validator(w, 0), 140)), true);
  });

  it('is false for a commit already held, unsent or gossiped', async () => {
    const commit = signedCommit(w, validator(w, 1), 180);
    assert.equal(await pool.validateCommit(commit), true);
    pool.addCommit(commit);
    assert.equal(await pool.validateCommit(commit), false);
    const local = signedCommit(w, validator(w, 2), 180);
    pool.addCommit(local, true);
    assert.equal(await pool.validateCommit(local), false);
  });

  it('is false at or below the max removal height (the final block certified height), even where the validator set changes after it', async () => {
    const w2 = world();
    w2.sets.set(40, [0, 1, 2]);
    w2.sets.set(41, [0, 1, 2]);
    const p = poolOver(w2);
    assert.equal(p.getMaxRemovalHeight(), 40);
    assert.equal(await p.validateCommit(signedCommit(w2, validator(w2, 0), 40)), false);
    assert.equal(await p.validateCommit(signedCommit(w2, validator(w2, 0), 39)), false);
  });

  it('is false out of range (below precommitted - 100, or above the tip) unless the validator set changes at the next height', async () => {
    assert.equal(await pool.validateCommit(signedCommit(w, validator(w, 0), 60)), false);
    assert.equal(await pool.validateCommit(signedCommit(w, validator(w, 0), 80)), true, 'a set is stored at 81');
    assert.equal(await pool.validateCommit(signedCommit(w, validator(w, 0), 149)), true, 'in range');
    const beyond = { ...signedCommit(w, validator(w, 1), 250), height: 251 };
    assert.equal(await pool.validateCommit(beyond), false);
  });

  it('is false for a commit of another block at its height', async () => {
    const other = w.headers[171];
    assert.ok(other !== undefined);
    const commit = { ...signedCommit(w, validator(w, 1), 170), blockID: blockHeaderID(other) };
    assert.equal(await pool.validateCommit(commit), false);
  });

  it('throws for a validator not active at the height', async () => {
    await assert.rejects(
      () => pool.validateCommit(signedCommit(w, validator(w, 3), 120)),
      /Commit validator was not active for its height/,
    );
  });

  it('throws for a signature that does not verify', async () => {
    const commit = signedCommit(w, validator(w, 1), 160);
    const forged = { ...commit, certificateSignature: signedCommit(w, validator(w, 2), 160).certificateSignature };
    await assert.rejects(() => pool.validateCommit(forged), /Certificate signature is not valid/);
  });
});

describe('commit pool: periodic job', () => {
  it('gossips up to twice the active validators: commits older than the range first, then local newest first, then received newest first; moves them to gossiped', async () => {
    const w = world();
    const sent: { event: string; data: Buffer }[] = [];
    const pool = poolOver(w, (event, data) => sent.push({ event, data }));
    const v = (i: number) => validator(w, i);
    // received: one old commit (kept: the set changes after 80), four in range
    for (const commit of [
      signedCommit(w, v(0), 80),
      signedCommit(w, v(1), 170),
      signedCommit(w, v(1), 195),
      signedCommit(w, v(2), 175),
      signedCommit(w, v(2), 185),
    ])
      pool.addCommit(commit);
    pool.addCommit(signedCommit(w, v(3), 180), true);
    pool.addCommit(signedCommit(w, v(3), 190), true);
    await pool.job();
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.event, NETWORK_EVENT_COMMIT_MESSAGES);
    // 3 validators active at the next height: 6 commits
    assert.deepEqual(decodePacket(sent[0]?.data ?? Buffer.alloc(0)).map(describeCommit), [
      describeCommit(signedCommit(w, v(0), 80)),
      describeCommit(signedCommit(w, v(3), 190)),
      describeCommit(signedCommit(w, v(3), 180)),
      describeCommit(signedCommit(w, v(1), 195)),
      describeCommit(signedCommit(w, v(2), 185)),
      describeCommit(signedCommit(w, v(2), 175)),
    ]);
    await pool.job();
    // then the remaining unsent one, after the old one again (older than the range, gossiped or not)
    assert.deepEqual(decodePacket(sent[1]?.data ?? Buffer.alloc(0)).map(describeCommit), [
      describeCommit(signedCommit(w, v(0), 80)),
      describeCommit(signedCommit(w, v(1), 170)),
    ]);
    assert.equal(pool.getCommitsByHeight(170).length, 1, 'kept as gossiped');
  });

  it('drops commits at or below the max removal height and out-of-range ones without a validator set change after them', async () => {
    const w = world();
    const pool = poolOver(w);
    const v = (i: number) => validator(w, i);
    pool.addCommit(signedCommit(w, v(0), 80));
    pool.addCommit(signedCommit(w, v(1), 170), true);
    pool.addCommit(signedCommit(w, v(2), 120));
    w.sets.delete(81);
    w.maxHeightPrecommitted = 230;
    await pool.job();
    assert.equal(pool.getCommitsByHeight(80).length, 0, 'no set change after 80 any more');
    assert.equal(pool.getCommitsByHeight(120).length, 0, 'below 230 - 100');
    assert.equal(pool.getCommitsByHeight(170).length, 1);
    w.finalizedHeight = 230;
    w.headers[230] = { ...worldHeader(new Rng(2), 230, 170) };
    await pool.job();
    assert.equal(pool.getCommitsByHeight(170).length, 0, 'at the removal height');
  });
});

describe('commit pool: single commits packets', () => {
  it('encodes and decodes as @klayr/codec with klayr-framework schemas', () => {
    const w = world();
    const commits = [signedCommit(w, validator(w, 0), 10), signedCommit(w, validator(w, 1), 200)];
    const klayrBytes = klayrCodec.codec.encode(klayrSchemas.singleCommitsNetworkPacketSchema, {
      commits: commits.map((c) => klayrCodec.codec.encode(klayrSchemas.singleCommitSchema, c)),
    });
    assert.ok(encodeSingleCommitsPacket(commits).equals(klayrBytes));
    assert.deepEqual(decodePacket(encodeSingleCommitsPacket(commits)), commits);
    assert.deepEqual(klayrSchemas.singleCommitSchema, singleCommitSchema);
    assert.deepEqual(klayrSchemas.singleCommitsNetworkPacketSchema, singleCommitsNetworkPacketSchema);
  });

  it('adds the valid commits of a packet and skips those not worth keeping, without penalty', async () => {
    const w = world();
    const pool = poolOver(w);
    const { penalties, peers } = fakePeers();
    const first = signedCommit(w, validator(w, 1), 170);
    const second = signedCommit(w, validator(w, 2), 170);
    const valid = [first, second];
    const old = signedCommit(w, validator(w, 0), 60);
    await pool.handleSingleCommitsPacket(encodeSingleCommitsPacket([first, old, second, first]), 'p', peers);
    assert.deepEqual(penalties, []);
    assert.deepEqual(pool.getCommitsByHeight(170), valid);
    assert.deepEqual(pool.getCommitsByHeight(60), []);
  });

  it('bans the peer for bytes that are not a packet, a commit its schema refuses, an inactive validator or a bad signature; keeps the commits before it', async () => {
    const w = world();
    const first = signedCommit(w, validator(w, 1), 170);
    const after = signedCommit(w, validator(w, 2), 171);
    const badSignature = { ...signedCommit(w, validator(w, 1), 172), certificateSignature: first.certificateSignature };
    const shortID = codec.encode(singleCommitSchema, { ...first, blockID: first.blockID.subarray(0, 31) });
    const packetOf = (middle: Buffer) =>
      codec.encode(singleCommitsNetworkPacketSchema, {
        commits: [codec.encode(singleCommitSchema, first), middle, codec.encode(singleCommitSchema, after)],
      });
    const cases: [string, Buffer, boolean][] = [
      ['not a packet', Buffer.from('0a05ff', 'hex'), false],
      ['a commit of a 31-byte block ID', packetOf(shortID), true],
      ['a commit that is not a commit', packetOf(Buffer.from([0xff, 0xff])), true],
      [
        'an inactive validator',
        packetOf(codec.encode(singleCommitSchema, signedCommit(w, validator(w, 0), 172))),
        true,
      ],
      ['a bad signature', packetOf(codec.encode(singleCommitSchema, badSignature)), true],
    ];
    for (const [name, bytes, firstKept] of cases) {
      const pool = poolOver(w);
      const { penalties, peers } = fakePeers();
      await pool.handleSingleCommitsPacket(bytes, '127.0.0.3:5000', peers);
      assert.deepEqual(penalties, [{ peerId: '127.0.0.3:5000', penalty: PENALTY_BAN }], name);
      assert.deepEqual(pool.getCommitsByHeight(170), firstKept ? [first] : [], name);
      assert.deepEqual(pool.getCommitsByHeight(171), [], `${name}: nothing after it`);
    }
    assert.throws(() => decodeSingleCommit(shortID));
  });
});

describe('commit pool against klayr-framework', () => {
  it('validates, gossips and aggregates as Klayr over a moving chain', async () => {
    const rng = new Rng(61);
    const w = world(61);
    const sentKestrel: Buffer[] = [];
    const sentKlayr: Buffer[] = [];
    const pool = poolOver(w, (_event, data) => sentKestrel.push(data));
    const oracleWorld = klayrWorld(w);
    const oracle = new KlayrCommitPool({
      db: {},
      blockTime: 10,
      minCertifyHeight: w.minCertifyHeight,
      bftMethod: oracleWorld.bftMethod,
      chain: oracleWorld.chain,
      network: { send: ({ data }: { data: Buffer }) => sentKlayr.push(data) },
    });
    const outcome = async <T>(run: () => T | Promise<T>): Promise<T | 'throws'> => {
      try {
        return await run();
      } catch {
        return 'throws';
      }
    };
    let accepted = 0;
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 25; i++) {
        const tip = w.headers.length - 1;
        const height = Math.max(1, tip - rng.int(200));
        const signer = rng.pick(w.validators);
        let commit = signedCommit(w, signer, height);
        const twist = rng.int(8);
        if (twist === 0) commit = { ...commit, blockID: rng.bytes(32) };
        if (twist === 1)
          commit = { ...commit, certificateSignature: signedCommit(w, signer, tip).certificateSignature };
        if (twist === 2) commit = { ...commit, validatorAddress: rng.bytes(20) };
        if (twist === 3) commit = { ...commit, height: tip + 1 + rng.int(2) };
        const expected = await outcome(() => oracle.validateCommit({}, commit));
        assert.equal(await outcome(() => pool.validateCommit(commit)), expected, `round ${round} commit ${i}`);
        if (expected === true || rng.int(4) === 0) {
          const local = rng.int(3) === 0;
          pool.addCommit(commit, local);
          oracle.addCommit(commit, local);
          if (expected === true) accepted += 1;
        }
      }
      assert.deepEqual(
        await outcome(() => pool.select(kestrelWorldChain(w).engineView())),
        await outcome(() => oracle.getAggregateCommit({})),
        `aggregate commit, round ${round}`,
      );
      await pool.job();
      await oracle._job({});
      assert.equal(sentKestrel.length, sentKlayr.length);
      assert.ok(sentKestrel.at(-1)?.equals(sentKlayr.at(-1) ?? Buffer.alloc(0)), `gossip of round ${round}`);
      // the chain moves on: new blocks, finality, certification, sometimes a validator set change
      for (let j = 0; j < 8; j++) w.headers.push(worldHeader(rng, w.headers.length));
      w.maxHeightPrecommitted += 8;
      w.maxHeightPrevoted += 8;
      w.finalizedHeight = w.maxHeightPrecommitted;
      const certified = w.maxHeightCertified + rng.int(10);
      const final = w.headers[w.finalizedHeight];
      if (final !== undefined) final.aggregateCommit = { ...final.aggregateCommit, height: certified };
      w.maxHeightCertified = certified;
      if (rng.int(3) === 0)
        w.sets.set(
          w.headers.length,
          rng.pick([
            [0, 1, 2],
            [1, 2, 3],
            [0, 2, 3],
          ]),
        );
    }
    assert.ok(accepted > 20, `accepted commits: ${accepted}`);
    assert.ok(
      sentKestrel.some((d) => decodePacket(d).length > 0),
      'commits were gossiped',
    );
  });
});

// Differential test: klayr-framework's own engine BFT module (over @klayr/chain's StateStore)
// and Kestrel's (over BlockState) run the same chain, compared after every block.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { BFTBlockHeader, BFTValidator, IdentifiedBFTHeader } from '../../src/engine/bft/index.js';
import {
  BFTModule,
  BFTParameterNotFoundError,
  bftParametersSchema,
  bftVotesSchema,
  EMPTY_BLS_KEY,
  heightKey,
} from '../../src/engine/bft/index.js';
import type { StateBase } from '../../src/engine/state/state_db.js';
import { BlockState, EMPTY_STATE, inIterationOrder } from '../../src/engine/state/state_db.js';
import type { Entry, IterateOptions } from '../../src/engine/state/types.js';
import { compile } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { blsKeyGen, blsPublicKeyFromPrivateKey } from '../../src/lib/crypto/bls.js';
import { keyPairFromSeed } from '../../src/lib/crypto/ed25519.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { klayrChain, klayrCodec } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const klayrBFT: any = require('klayr-framework/dist-node/engine/bft');
const klayrBFTErrors: any = require('klayr-framework/dist-node/engine/bft/errors');
const klayrBFTUtils: any = require('klayr-framework/dist-node/engine/bft/utils');
const klayrBFTSchemas: any = require('klayr-framework/dist-node/engine/bft/schemas');
const { NotFoundError } = require('@liskhq/lisk-db') as { NotFoundError: new (m: string) => Error };

const BLOCK_TIME = 10;
const BATCH_SIZE = 103;
const GENESIS_HEIGHT = 0;
const GENESIS_SLOT = 170_000_000;
/** @klayr/chain's prefix for state store entries in the blockchain database. */
const KLAYR_STATE_STORE_PREFIX = Buffer.from([10]);

/** lisk-db's InMemoryDatabase needs its native binary, which cannot be built offline: this is the part StateStore uses. */
class KlayrMemoryDB {
  readonly data = new Map<string, Buffer>();
  async get(key: Buffer): Promise<Buffer> {
    const value = this.data.get(key.toString('hex'));
    if (value === undefined) throw new NotFoundError(`Specified key ${key.toString('hex')} does not exist`);
    return Buffer.from(value);
  }
  createReadStream(options: { gte: Buffer; lte: Buffer; reverse?: boolean; limit?: number }): Readable {
    let entries = [...this.data]
      .map(([k, value]) => ({ key: Buffer.from(k, 'hex'), value: Buffer.from(value) }))
      .filter(({ key }) => key.compare(options.gte) >= 0 && key.compare(options.lte) <= 0)
      .sort((a, b) => a.key.compare(b.key));
    if (options.reverse === true) entries = entries.reverse();
    if (options.limit !== undefined && options.limit >= 0) entries = entries.slice(0, options.limit);
    return Readable.from(entries);
  }
  batch(): { set: (k: Buffer, v: Buffer) => void; del: (k: Buffer) => void } {
    return {
      set: (k, v) => this.data.set(k.toString('hex'), Buffer.from(v)),
      del: (k) => this.data.delete(k.toString('hex')),
    };
  }
  /** The BFT entries with the state store prefix removed, so keys read as Kestrel's. */
  entries(): string[] {
    return [...this.data]
      .filter(([k]) => k.startsWith(KLAYR_STATE_STORE_PREFIX.toString('hex')))
      .map(([k, v]) => `${k.slice(2)}=${v.toString('hex')}`)
      .sort();
  }
}

/** Committed engine state for Kestrel: what StateDB gives an overlay (iterate in iteration order, limit applied). */
class CommittedState implements StateBase {
  readonly data = new Map<string, Buffer>();
  get(key: Buffer): Buffer | undefined {
    return this.data.get(key.toString('hex'));
  }
  iterate(options: IterateOptions): Entry[] {
    const ascending = [...this.data]
      .map(([k, value]) => ({ key: Buffer.from(k, 'hex'), value }))
      .filter(({ key }) => key.compare(options.gte) >= 0 && key.compare(options.lte) <= 0)
      .sort((a, b) => a.key.compare(b.key));
    return inIterationOrder(ascending, options);
  }
  commit(state: BlockState): void {
    for (const { key, value } of state.overlay.changes()) {
      if (value === undefined) this.data.delete(key.toString('hex'));
      else this.data.set(key.toString('hex'), value);
    }
  }
  entries(): string[] {
    return [...this.data].map(([k, v]) => `${k}=${v.toString('hex')}`).sort();
  }
}

type Outcome = { value: string } | { error: string };

const describeError = (err: unknown): string =>
  err instanceof Error ? `${err.constructor.name}: ${err.message}` : `non-error ${String(err)}`;

const klayrOutcome = async (run: () => Promise<unknown>, show: (v: any) => string): Promise<Outcome> => {
  try {
    return { value: show(await run()) };
  } catch (err) {
    return { error: describeError(err) };
  }
};

const kestrelOutcome = (run: () => unknown, show: (v: any) => string): Outcome => {
  try {
    return { value: show(run()) };
  } catch (err) {
    return { error: describeError(err) };
  }
};

// both sides' values are encoded with Klayr's own codec, so Kestrel's objects must also have Klayr's types
const showParams = (p: unknown): string =>
  klayrCodec.codec.encode(klayrBFTSchemas.bftParametersSchema, p).toString('hex');
const showValidator = (v: BFTValidator): string =>
  [v.address, v.generatorKey, v.blsKey].map((b) => b.toString('hex')).join('/') +
  `/${typeof v.bftWeight}:${v.bftWeight}`;
const showPlain = (v: unknown): string => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x));

const makeValidator = (i: number, bftWeight = 1n): BFTValidator => {
  const seed = sha256(Buffer.from(`kestrel bft test validator ${i}`));
  const { publicKey } = keyPairFromSeed(seed);
  return {
    address: addressFromPublicKey(publicKey),
    bftWeight,
    generatorKey: publicKey,
    blsKey: blsPublicKeyFromPrivateKey(blsKeyGen(seed)),
  };
};

const shuffled = <T>(rng: Rng, items: readonly T[]): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/** Both implementations over their own state, one block execution at a time. */
class Pair {
  readonly klayr = new klayrBFT.BFTModule();
  readonly kestrel = new BFTModule({ batchSize: BATCH_SIZE, blockTime: BLOCK_TIME });
  readonly db = new KlayrMemoryDB();
  readonly committed = new CommittedState();
  klayrStore: any;
  state!: BlockState;

  async init(): Promise<void> {
    await this.klayr.init(BATCH_SIZE, BLOCK_TIME);
    this.begin();
  }

  begin(): void {
    this.klayrStore = new klayrChain.StateStore(this.db);
    this.state = new BlockState(this.committed);
  }

  commit(): void {
    this.klayrStore.finalize(this.db.batch());
    this.committed.commit(this.state);
    this.begin();
  }

  async same(
    what: string,
    klayr: (m: any, s: any) => Promise<unknown>,
    kestrel: (m: BFTModule['method'], s: BlockState) => unknown,
    show: (v: any) => string,
  ): Promise<Outcome> {
    const expected = await klayrOutcome(() => klayr(this.klayr.method, this.klayrStore), show);
    const actual = kestrelOutcome(() => kestrel(this.kestrel.method, this.state), show);
    assert.deepEqual(actual, expected, what);
    return actual;
  }

  async setBFTParameters(
    what: string,
    precommit: bigint,
    certificate: bigint,
    validators: BFTValidator[],
  ): Promise<Outcome> {
    return this.same(
      what,
      (m, s) => m.setBFTParameters(s, precommit, certificate, validators),
      (m, s) => m.setBFTParameters(s, precommit, certificate, validators),
      () => 'ok',
    );
  }

  assertSameEntries(what: string): void {
    assert.deepEqual(this.committed.entries(), this.db.entries(), `${what}: BFT store entries`);
  }
}

const thresholdsFor = (validators: readonly BFTValidator[]): bigint =>
  (2n * validators.reduce((s, v) => s + v.bftWeight, 0n)) / 3n + 1n;

describe('engine BFT module: differential against klayr-framework', () => {
  it('drives both over 420 blocks with skipped slots, validator changes, forks and certificates, identical after every step', async (t) => {
    const rng = new Rng(58);
    const pool = Array.from({ length: 110 }, (_, i) => makeValidator(i));
    const setA = pool.slice(0, 103);
    // 3 leave, 3 join, 3 become standby (weight 0); then weights of 2, and a reordering of the same set
    const setB = shuffled(rng, [...setA.slice(3), ...pool.slice(103, 106)]).map((v, i) =>
      i < 2 || v === pool[105] ? { ...v, bftWeight: 0n } : v,
    );
    const setC = shuffled(rng, pool.slice(4, 107)).map((v, i) => (i % 10 === 0 ? { ...v, bftWeight: 2n } : v));
    const setD = shuffled(rng, setC);
    const changes = new Map<number, { validators: BFTValidator[]; precommit: bigint; certificate: bigint }>([
      [30, { validators: setB, precommit: thresholdsFor(setB), certificate: thresholdsFor(setB) }],
      [80, { validators: setC, precommit: thresholdsFor(setC), certificate: thresholdsFor(setC) + 5n }],
      [81, { validators: setD, precommit: thresholdsFor(setD) + 1n, certificate: thresholdsFor(setD) }],
      [250, { validators: setD, precommit: thresholdsFor(setD) + 1n, certificate: thresholdsFor(setD) }],
    ]);

    const pair = new Pair();
    await pair.init();
    await pair.same(
      'before genesis: no parameters',
      (m, s) => m.getBFTParameters(s, 1),
      (m, s) => m.getBFTParameters(s, 1),
      showParams,
    );
    await pair.klayr.initGenesisState(pair.klayrStore, { height: GENESIS_HEIGHT });
    pair.kestrel.initGenesisState(pair.state, { height: GENESIS_HEIGHT });
    const genesisSet = shuffled(rng, setA);
    assert.deepEqual(await pair.setBFTParameters('genesis validators', 69n, 69n, genesisSet), { value: 'ok' });
    await pair.same(
      'genesis validatorsHash',
      async (m, s) => (await m.getBFTParameters(s, GENESIS_HEIGHT + 1)).validatorsHash,
      (m, s) => m.getBFTParameters(s, GENESIS_HEIGHT + 1).validatorsHash,
      (h: Buffer) => h.toString('hex'),
    );
    pair.commit();
    pair.assertSameEntries('genesis');

    const lastGenerated = new Map<string, number>();
    const stats = {
      contradicting: 0,
      forward: 0,
      certified: 0,
      prevoted: 0,
      precommitted: 0,
      deletedParams: 0,
      notImplying: 0,
    };
    let slot = GENESIS_SLOT;
    const N = 420;
    for (let height = GENESIS_HEIGHT + 1; height <= GENESIS_HEIGHT + N; height += 1) {
      const step = `height ${height}`;
      slot += rng.next() < 0.1 ? 2 + rng.int(3) : 1;
      const timestamp = slot * BLOCK_TIME + rng.int(BLOCK_TIME);
      // the full set of queries every few blocks and around the parameter changes; it keeps the run short
      const fullQuery = height % 10 === 0 || [...changes.keys()].some((c) => Math.abs(c - height) <= 1);

      for (let ahead = 0; ahead < (fullQuery ? 3 : 1); ahead += 1) {
        const t = timestamp + ahead * BLOCK_TIME;
        await pair.same(
          `${step}: generator at ${t}`,
          (m, s) => m.getGeneratorAtTimestamp(s, height, t),
          (m, s) => m.getGeneratorAtTimestamp(s, height, t),
          showValidator,
        );
      }
      const generator = pair.kestrel.method.getGeneratorAtTimestamp(pair.state, height, timestamp);
      const genKey = generator.address.toString('hex');
      await pair.same(
        `${step}: slot number`,
        async (m) => m.getSlotNumber(timestamp),
        (m) => m.getSlotNumber(timestamp),
        String,
      );
      await pair.same(
        `${step}: slot time`,
        async (m) => m.getSlotTime(slot),
        (m) => m.getSlotTime(slot),
        String,
      );
      const heights = pair.kestrel.method.getBFTHeights(pair.state);

      const honestMHG = lastGenerated.get(genKey) ?? 0;
      const roll = rng.next();
      // forks: a generator that also built on another branch up to or beyond this height; stale: one that forgot its last block
      const maxHeightGenerated =
        roll < 0.015 ? height : roll < 0.05 ? height + 1 + rng.int(4) : roll < 0.1 ? rng.int(honestMHG + 1) : honestMHG;
      const commitRoll = rng.next();
      const aggregateCommit =
        commitRoll < 0.15 && heights.maxHeightPrecommitted > heights.maxHeightCertified
          ? {
              height:
                heights.maxHeightCertified + 1 + rng.int(heights.maxHeightPrecommitted - heights.maxHeightCertified),
              // either part non-empty makes it a certificate
              aggregationBits: commitRoll < 0.02 ? Buffer.alloc(0) : rng.bytes(13),
              certificateSignature: commitRoll >= 0.02 && commitRoll < 0.04 ? Buffer.alloc(0) : rng.bytes(96),
            }
          : {
              height: heights.maxHeightCertified,
              aggregationBits: Buffer.alloc(0),
              certificateSignature: Buffer.alloc(0),
            };
      let header: BFTBlockHeader = {
        height,
        generatorAddress: generator.address,
        maxHeightGenerated,
        maxHeightPrevoted: heights.maxHeightPrevoted,
        aggregateCommit,
      };

      const contradicting = await pair.same(
        `${step}: header contradicts chain`,
        (m, s) => m.isHeaderContradictingChain(s, header),
        (m, s) => m.isHeaderContradictingChain(s, header),
        String,
      );
      if ('value' in contradicting && contradicting.value === 'true') {
        // consensus would reject it; the generator's honest header goes in instead
        stats.contradicting += 1;
        header = { ...header, maxHeightGenerated: honestMHG };
        assert.deepEqual(
          await pair.same(
            `${step}: honest header`,
            (m, s) => m.isHeaderContradictingChain(s, header),
            (m, s) => m.isHeaderContradictingChain(s, header),
            String,
          ),
          { value: 'false' },
        );
      } else if (maxHeightGenerated > height) stats.forward += 1;

      // headers the chain must reject: a double-signed height, and random ones by current validators
      const own = lastGenerated.get(genKey);
      const probes: BFTBlockHeader[] = [];
      if (own !== undefined && own < height)
        probes.push({ ...header, height: own, maxHeightGenerated: Math.max(0, own - rng.int(200)) });
      if (height % 2 === 0) {
        const probeHeight = Math.max(1, height - rng.int(320));
        probes.push({
          ...header,
          generatorAddress: rng.pick(pair.kestrel.method.getBFTParameters(pair.state, height).validators).address,
          height: probeHeight,
          maxHeightGenerated: rng.int(probeHeight + 3),
          maxHeightPrevoted: rng.int(heights.maxHeightPrevoted + 2),
        });
      }
      for (const [i, probe] of probes.entries()) {
        await pair.same(
          `${step}: probe ${i} contradicts chain`,
          (m, s) => m.isHeaderContradictingChain(s, probe),
          (m, s) => m.isHeaderContradictingChain(s, probe),
          String,
        );
        const a: IdentifiedBFTHeader = { ...probe, id: sha256(Buffer.from(`probe ${height} ${i}`)) };
        const b: IdentifiedBFTHeader = { ...header, id: sha256(Buffer.from(`header ${height}`)) };
        await pair.same(
          `${step}: probe ${i} vs header`,
          async (m) => m.areHeadersContradicting(a, b),
          (m) => m.areHeadersContradicting(a, b),
          String,
        );
        await pair.same(
          `${step}: probe ${i} vs itself`,
          async (m) => m.areHeadersContradicting(a, { ...a }),
          (m) => m.areHeadersContradicting(a, { ...a }),
          String,
        );
      }

      const implies = await pair.same(
        `${step}: implies maximal prevotes`,
        (m, s) => m.impliesMaximalPrevotes(s, header),
        (m, s) => m.impliesMaximalPrevotes(s, header),
        String,
      );
      if ('value' in implies && implies.value === 'false') stats.notImplying += 1;
      const wrongHeight = { ...header, height: height + 1 + rng.int(3) };
      if (height % 5 === 0)
        await pair.same(
          `${step}: implies maximal prevotes at a wrong height`,
          (m, s) => m.impliesMaximalPrevotes(s, wrongHeight),
          (m, s) => m.impliesMaximalPrevotes(s, wrongHeight),
          String,
        );

      // a commit-pool floor lagging behind the window defers parameter deletion, also where the window passes a change
      const oldestAfter = height - 3 * BATCH_SIZE + 1;
      const lagging = changes.has(oldestAfter - 1) || rng.next() < 0.1;
      const maxRemovalHeight = lagging
        ? Math.max(0, Math.min(heights.maxHeightCertified, oldestAfter - 1 - rng.int(3)))
        : heights.maxHeightCertified;
      const paramsBefore = pair.committed.entries().filter((e) => e.startsWith('000000000000')).length;
      await pair.klayr.beforeTransactionsExecute(pair.klayrStore, header, maxRemovalHeight);
      pair.kestrel.beforeTransactionsExecute(pair.state, header, maxRemovalHeight);
      // the uncommitted state answers alike too
      if (fullQuery || height % 3 === 0)
        await pair.same(
          `${step}: heights after execution`,
          (m, s) => m.getBFTHeights(s),
          (m, s) => m.getBFTHeights(s),
          showPlain,
        );
      const change = changes.get(height);
      if (change !== undefined) {
        assert.deepEqual(
          await pair.setBFTParameters(
            `${step}: validator change`,
            change.precommit,
            change.certificate,
            change.validators,
          ),
          { value: 'ok' },
        );
      }
      await pair.same(
        `${step}: validatorsHash for the next block`,
        async (m, s) => (await m.getBFTParameters(s, height + 1)).validatorsHash,
        (m, s) => m.getBFTParameters(s, height + 1).validatorsHash,
        (h: Buffer) => h.toString('hex'),
      );
      pair.commit();
      lastGenerated.set(genKey, Math.max(header.maxHeightGenerated, height));

      pair.assertSameEntries(step);
      const after = await pair.same(
        `${step}: BFT heights`,
        (m, s) => m.getBFTHeights(s),
        (m, s) => m.getBFTHeights(s),
        showPlain,
      );
      const now = JSON.parse((after as { value: string }).value) as typeof heights;
      if (now.maxHeightPrevoted > heights.maxHeightPrevoted) stats.prevoted += 1;
      if (now.maxHeightPrecommitted > heights.maxHeightPrecommitted) stats.precommitted += 1;
      if (now.maxHeightCertified > heights.maxHeightCertified) stats.certified += 1;
      if (pair.committed.entries().filter((e) => e.startsWith('000000000000')).length < paramsBefore)
        stats.deletedParams += 1;

      const queryHeights = (
        fullQuery
          ? [0, 1, 29, 30, 31, 80, 81, 82, 251, height - 309, height - 1, height, height + 2]
          : [rng.int(height + 2)]
      ).filter((h) => h >= 0);
      for (const h of queryHeights) {
        await pair.same(
          `${step}: parameters at ${h}`,
          (m, s) => m.getBFTParameters(s, h),
          (m, s) => m.getBFTParameters(s, h),
          showParams,
        );
        await pair.same(
          `${step}: exist parameters at ${h}`,
          (m, s) => m.existBFTParameters(s, h),
          (m, s) => m.existBFTParameters(s, h),
          String,
        );
        await pair.same(
          `${step}: next parameters after ${h}`,
          (m, s) => m.getNextHeightBFTParameters(s, h),
          (m, s) => m.getNextHeightBFTParameters(s, h),
          String,
        );
      }
      if (fullQuery)
        await pair.same(
          `${step}: active validators`,
          (m, s) => m.getBFTParametersActiveValidators(s, height + 1),
          (m, s) => m.getBFTParametersActiveValidators(s, height + 1),
          showParams,
        );
    }

    t.diagnostic(showPlain(stats));
    // the run exercised what it claims to
    assert.ok(stats.contradicting > 5, `contradicting headers: ${showPlain(stats)}`);
    assert.ok(stats.forward > 5 && stats.notImplying > 10, showPlain(stats));
    assert.ok(stats.prevoted > 200 && stats.precommitted > 120 && stats.certified > 15, showPlain(stats));
    assert.ok(stats.deletedParams >= 2, `parameter deletions: ${showPlain(stats)}`);
    const votes = compile<{ blockBFTInfos: unknown[] }>(bftVotesSchema).decode(
      pair.committed.get(Buffer.from('000000008000', 'hex'))!,
    );
    assert.equal(votes.blockBFTInfos.length, 3 * BATCH_SIZE);
  });

  it("rejects invalid validator sets with Klayr's errors, in Klayr's order", async () => {
    const pair = new Pair();
    await pair.init();
    await pair.klayr.initGenesisState(pair.klayrStore, { height: 5 });
    pair.kestrel.initGenesisState(pair.state, { height: 5 });
    const v = Array.from({ length: 6 }, (_, i) => makeValidator(200 + i));
    const cases: [string, bigint, bigint, BFTValidator[], string][] = [
      [
        'too many validators',
        3n,
        3n,
        Array.from({ length: BATCH_SIZE + 1 }, (_, i) => makeValidator(300 + i)),
        `Error: Invalid validators size. The number of validators can be at most the batch size ${BATCH_SIZE}.`,
      ],
      [
        'duplicate address',
        3n,
        3n,
        [v[0]!, v[1]!, { ...v[2]!, address: v[0]!.address }],
        'Error: Provided validator addresses are not unique.',
      ],
      [
        'duplicate BLS key',
        3n,
        3n,
        [v[0]!, v[1]!, { ...v[2]!, blsKey: v[1]!.blsKey }],
        'Error: Provided validator BLS keys are not unique.',
      ],
      [
        'negative weight',
        1n,
        1n,
        [v[0]!, { ...v[1]!, bftWeight: -1n }, v[2]!],
        'Error: BFT Weight must be 0 or greater.',
      ],
      ['precommit threshold too low', 2n, 3n, v.slice(0, 6), 'Error: Invalid precommitThreshold input.'],
      ['precommit threshold too high', 7n, 3n, v.slice(0, 6), 'Error: Invalid precommitThreshold input.'],
      ['certificate threshold too low', 3n, 2n, v.slice(0, 6), 'Error: Invalid certificateThreshold input.'],
      ['certificate threshold too high', 3n, 7n, v.slice(0, 6), 'Error: Invalid certificateThreshold input.'],
      ['empty set', 1n, 1n, [], 'Error: Invalid precommitThreshold input.'],
    ];
    for (const [name, precommit, certificate, validators, message] of cases) {
      assert.deepEqual(await pair.setBFTParameters(name, precommit, certificate, validators), { error: message }, name);
    }
    pair.assertSameEntries('nothing written by a rejected set');

    // validators without a BLS key share the empty key; weight 0 is allowed and left out of the hash
    const standby = [
      { ...v[0]!, blsKey: EMPTY_BLS_KEY, bftWeight: 0n },
      { ...v[1]!, blsKey: EMPTY_BLS_KEY, bftWeight: 0n },
      ...v.slice(2),
    ];
    assert.deepEqual(await pair.setBFTParameters('standby validators', 3n, 4n, standby), { value: 'ok' });
    pair.commit();
    pair.assertSameEntries('standby set');
    assert.ok(
      pair.committed.get(Buffer.concat([Buffer.alloc(6), heightKey(6)])) !== undefined,
      'parameters stored for the height after genesis',
    );
    await pair.same(
      'active validators drop weight 0',
      (m, s) => m.getBFTParametersActiveValidators(s, 6),
      (m, s) => m.getBFTParametersActiveValidators(s, 6),
      showParams,
    );
    assert.equal(pair.kestrel.method.getBFTParametersActiveValidators(pair.state, 6).validators.length, 4);
    const expectedHash = klayrBFTUtils.computeValidatorsHash(
      standby
        .filter((x) => x.bftWeight > 0n)
        .map((x) => ({ blsKey: x.blsKey, bftWeight: x.bftWeight }))
        .sort((a, b) => a.blsKey.compare(b.blsKey)),
      4n,
    );
    assert.equal(
      pair.kestrel.method.getBFTParameters(pair.state, 6).validatorsHash.toString('hex'),
      expectedHash.toString('hex'),
    );
  });

  it('reports missing parameters and uninitialized votes as Klayr does', async () => {
    const pair = new Pair();
    await pair.init();
    const method = pair.kestrel.method;
    assert.throws(() => method.getBFTParameters(pair.state, 10), BFTParameterNotFoundError);
    assert.throws(
      () => method.getBFTParameters(pair.state, 10),
      (err: Error) => err.message === '',
    );
    await assert.rejects(
      pair.klayr.method.getBFTParameters(pair.klayrStore, 10),
      klayrBFTErrors.BFTParameterNotFoundError,
    );
    assert.throws(() => method.getBFTHeights(pair.state), /^Error: Specified key 000000008000 does not exist$/);
    await assert.rejects(
      pair.klayr.method.getBFTHeights(pair.klayrStore),
      /Specified key 0a000000008000 does not exist/,
    );
    assert.throws(
      () => method.setBFTParameters(pair.state, 1n, 1n, [makeValidator(1)]),
      /Specified key 000000008000 does not exist/,
    );

    pair.kestrel.initGenesisState(pair.state, { height: 0 });
    await pair.klayr.initGenesisState(pair.klayrStore, { height: 0 });
    const v = [makeValidator(1), makeValidator(2), makeValidator(3)];
    await pair.setBFTParameters('small set', 2n, 2n, v);
    for (const h of [0, 1, 2, 2 ** 32 - 1]) {
      await pair.same(
        `parameters at ${h}`,
        (m, s) => m.getBFTParameters(s, h),
        (m, s) => m.getBFTParameters(s, h),
        showParams,
      );
      await pair.same(
        `next parameters after ${h}`,
        (m, s) => m.getNextHeightBFTParameters(s, h),
        (m, s) => m.getNextHeightBFTParameters(s, h),
        String,
      );
    }
    for (const h of [-1, 2 ** 32, 1.5]) {
      await pair.same(
        `parameters at out-of-range ${h}`,
        (m, s) => m.getBFTParameters(s, h),
        (m, s) => m.getBFTParameters(s, h),
        showParams,
      );
    }
    assert.throws(() => method.getNextHeightBFTParameters(pair.state, 1), BFTParameterNotFoundError);
    // with no block yet, a header implies maximal prevotes iff it points backwards
    for (const [height, maxHeightGenerated] of [
      [1, 0],
      [1, 1],
      [7, 9],
    ] as const) {
      const header = { height, maxHeightGenerated, generatorAddress: v[0]!.address };
      await pair.same(
        `implies at genesis ${height}/${maxHeightGenerated}`,
        (m, s) => m.impliesMaximalPrevotes(s, header),
        (m, s) => m.impliesMaximalPrevotes(s, header),
        String,
      );
    }
    const first: BFTBlockHeader = {
      height: 1,
      generatorAddress: v[1]!.address,
      maxHeightGenerated: 0,
      maxHeightPrevoted: 0,
      aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    };
    pair.kestrel.beforeTransactionsExecute(pair.state, first, 0);
    await pair.klayr.beforeTransactionsExecute(pair.klayrStore, first, 0);
    assert.throws(
      () =>
        method.impliesMaximalPrevotes(pair.state, {
          height: 3,
          maxHeightGenerated: 0,
          generatorAddress: v[0]!.address,
        }),
      /^Error: Input header with height 3 is invalid\. It must be 2\.$/,
    );
    pair.commit();
    pair.assertSameEntries('after the first block');
  });

  it('agrees with Klayr on header contradiction and slot arithmetic for arbitrary values', () => {
    const rng = new Rng(7);
    const addresses = [makeValidator(1).address, makeValidator(2).address];
    const method = new BFTModule({ batchSize: BATCH_SIZE, blockTime: 7 }).method;
    const header = (): IdentifiedBFTHeader => ({
      id: rng.bytes(1),
      generatorAddress: rng.pick(addresses),
      height: rng.int(12),
      maxHeightGenerated: rng.int(12),
      maxHeightPrevoted: rng.int(12),
    });
    let contradicting = 0;
    for (let i = 0; i < 5000; i += 1) {
      const a = header();
      const b = rng.next() < 0.1 ? { ...a } : header();
      const expected = !a.id.equals(b.id) && (klayrBFTUtils.areDistinctHeadersContradicting(a, b) as boolean);
      assert.equal(method.areHeadersContradicting(a, b), expected, showPlain([a, b]));
      if (expected) contradicting += 1;
    }
    assert.ok(contradicting > 500);
    for (const t of [0, 6, 7, 13, 14, 1_700_000_003]) {
      const slotNumber = Math.floor(t / 7);
      assert.equal(method.getSlotNumber(t), slotNumber);
      assert.equal(method.getSlotTime(slotNumber), slotNumber * 7);
      assert.ok(method.isWithinTimeslot(slotNumber, t) && !method.isWithinTimeslot(slotNumber + 1, t));
    }
  });

  it('lists one round of generators from the current slot, as the chain endpoint does', () => {
    const bft = new BFTModule({ batchSize: 10, blockTime: 10 });
    const state = new BlockState(EMPTY_STATE);
    bft.initGenesisState(state, { height: 0 });
    const v = Array.from({ length: 5 }, (_, i) => makeValidator(400 + i));
    bft.method.setBFTParameters(state, 4n, 4n, v);
    const list = bft.method.getGeneratorList(state, 1234);
    assert.deepEqual(
      list.map((g) => g.nextAllocatedTime),
      [1230, 1240, 1250, 1260, 1270],
    );
    list.forEach((g, i) => {
      assert.ok(g.address.equals(bft.method.getGeneratorAtTimestamp(state, 1, 1234 + i * 10).address));
    });
    assert.deepEqual(
      bft.method.getCurrentValidators(state, 0).map((x) => x.address),
      v.map((x) => x.address),
    );
    assert.throws(() => new BFTModule({ batchSize: 0, blockTime: 10 }), /batch size/);
    assert.throws(
      () =>
        bft.method.setBFTParameters(
          state,
          4n,
          4n,
          Array.from({ length: 11 }, (_, i) => makeValidator(500 + i)),
        ),
      /at most the batch size 10\./,
    );
    // stored as Klayr's schema describes
    const stored = state.get(Buffer.concat([Buffer.alloc(6), heightKey(1)]))!;
    assert.equal(klayrCodec.codec.decode(klayrBFTSchemas.bftParametersSchema, stored).validators.length, 5);
    assert.deepEqual(
      compile(bftParametersSchema).encode(klayrCodec.codec.decode(klayrBFTSchemas.bftParametersSchema, stored)),
      stored,
    );
  });
});
/* eslint-enable @typescript-eslint/no-explicit-any */

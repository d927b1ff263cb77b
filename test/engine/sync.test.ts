import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { BFTValidator } from '../../src/engine/bft/types.js';
import { unsignedGenesisHeader } from '../../src/engine/genesis.js';
import type { ConnectedPeer } from '../../src/engine/network/peers.js';
import { computeBestPeer } from '../../src/engine/sync/best_peer.js';
import { blockSynchronizationApplies } from '../../src/engine/sync/block_synchronization.js';
import {
  AbortError,
  ApplyPenaltyAndAbortError,
  ApplyPenaltyAndRestartError,
  RestartError,
} from '../../src/engine/sync/errors.js';
import { fastChainSwitchingApplies } from '../../src/engine/sync/fast_chain_switching.js';
import { computeBlockHeightsList, largestSubsetMaxBy, lastTwoRoundsHeights } from '../../src/engine/sync/heights.js';
import type { SyncMechanism } from '../../src/engine/sync/mechanism.js';
import type { SynchronizerOptions } from '../../src/engine/sync/synchronizer.js';
import { FAILED_SYNC_COOLDOWN_MS, Synchronizer } from '../../src/engine/sync/synchronizer.js';
import type { Block } from '../../src/lib/chain/block.js';
import '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const require = createRequire(import.meta.url);
const SYNC = 'klayr-framework/dist-node/engine/consensus/synchronizer';
type KlayrMethod = { call(self: unknown, ...args: unknown[]): unknown };
const klayrUtils = require(`${SYNC}/utils.js`) as {
  computeBlockHeightsList(finalized: number, validators: number, limit: number, round: number): number[];
  computeLargestSubsetMaxBy<T>(items: T[], by: (item: T) => number): T[];
};
const { BlockSynchronizationMechanism } = require(`${SYNC}/block_synchronization_mechanism.js`) as {
  BlockSynchronizationMechanism: { prototype: { _computeBestPeer: KlayrMethod } };
};
const { FastChainSwitchingMechanism } = require(`${SYNC}/fast_chain_switching_mechanism.js`) as {
  FastChainSwitchingMechanism: { prototype: { isValidFor: KlayrMethod; _computeLastTwoRoundsHeights: KlayrMethod } };
};
const silent = pino({ level: 'silent' });

/** Klayr's _computeBestPeer with Math.random returning `r`: the chosen peer ID, or the error's class and message. */
const klayrBestPeer = (peers: ConnectedPeer[], tip: { height: number; maxHeightPrevoted: number }, r: number) => {
  const random = Math.random;
  Math.random = () => r;
  try {
    const self = {
      _network: { getConnectedPeers: () => peers },
      _chain: { lastBlock: { header: tip } },
      _logger: silent,
    };
    return {
      peerId: (BlockSynchronizationMechanism.prototype._computeBestPeer.call(self) as { peerId: string }).peerId,
    };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  } finally {
    Math.random = random;
  }
};

const kestrelBestPeer = (peers: ConnectedPeer[], tip: { height: number; maxHeightPrevoted: number }, r: number) => {
  try {
    return { peerId: computeBestPeer(peers, tip, () => r).peerId };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
};

const IDS = [Buffer.alloc(32, 3), Buffer.alloc(32, 1), Buffer.alloc(32, 2)];

/** A peer list with many ties: few heights, prevoted heights and tips; some peers without their chain info. */
const randomPeers = (rng: Rng): ConnectedPeer[] =>
  Array.from({ length: rng.int(8) }, (_, i) => {
    const maxHeightPrevoted = rng.int(3);
    const full = {
      height: maxHeightPrevoted + rng.int(3),
      maxHeightPrevoted,
      blockVersion: 2,
      lastBlockID: IDS[rng.int(IDS.length)] as Buffer,
    };
    const peerId = `127.0.0.${i + 1}:7667`;
    if (rng.int(6) > 0) return { peerId, options: full };
    const { height: _height, ...withoutHeight } = full;
    return { peerId, options: withoutHeight };
  });

const block = (height: number, generatorAddress = Buffer.alloc(20, 1)): Block => ({
  header: {
    ...unsignedGenesisHeader({ height, timestamp: 1000 + height, previousBlockID: Buffer.alloc(32), assets: [] }),
    generatorAddress,
  },
  transactions: [],
  assets: [],
});

const validators = (count: number, zeroWeight: number[] = []): BFTValidator[] =>
  Array.from({ length: count }, (_, i) => ({
    address: Buffer.alloc(20, i + 1),
    bftWeight: zeroWeight.includes(i) ? 0n : 1n,
    generatorKey: Buffer.alloc(32),
    blsKey: Buffer.alloc(48),
  }));

describe('computeBlockHeightsList', () => {
  it("equals Klayr's on generated inputs", () => {
    const rng = new Rng(7);
    for (let i = 0; i < 2000; i++) {
      const validatorsCount = 1 + rng.int(110);
      const finalized = rng.int(5000);
      const limit = rng.int(12);
      const round = rng.int(60) - 5;
      assert.deepEqual(
        computeBlockHeightsList(finalized, validatorsCount, limit, round),
        klayrUtils.computeBlockHeightsList(finalized, validatorsCount, limit, round),
        JSON.stringify({ finalized, validatorsCount, limit, round }),
      );
    }
  });

  it('offers the finalized height last when the rounds reach below it', () => {
    assert.deepEqual(computeBlockHeightsList(250, 103, 10, 5), [412, 309, 250]);
    assert.deepEqual(computeBlockHeightsList(0, 103, 10, 1), [0]);
  });

  it("lastTwoRoundsHeights equals Klayr's _computeLastTwoRoundsHeights", () => {
    for (const [height, count] of [
      [0, 51],
      [10, 51],
      [101, 51],
      [500, 103],
    ] as const) {
      const self = { _chain: { lastBlock: { header: { height } } } };
      assert.deepEqual(
        lastTwoRoundsHeights(height, count),
        FastChainSwitchingMechanism.prototype._computeLastTwoRoundsHeights.call(self, count),
      );
    }
  });

  it("largestSubsetMaxBy equals Klayr's computeLargestSubsetMaxBy", () => {
    const rng = new Rng(11);
    for (let i = 0; i < 500; i++) {
      const items = Array.from({ length: rng.int(10) }, () => ({ v: rng.int(4) }));
      assert.deepEqual(
        largestSubsetMaxBy(items, (x) => x.v),
        klayrUtils.computeLargestSubsetMaxBy(items, (x: { v: number }) => x.v),
      );
    }
  });
});

describe('best peer', () => {
  it("is Klayr's choice on generated peer lists (same random draw), errors included", () => {
    const rng = new Rng(5);
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const peers = randomPeers(rng);
      const tip = { height: rng.int(4), maxHeightPrevoted: rng.int(3) };
      const r = rng.next();
      const expected = klayrBestPeer(peers, tip, r);
      assert.deepEqual(kestrelBestPeer(peers, tip, r), expected, JSON.stringify({ peers, tip, r }));
      seen.add(expected.peerId === undefined ? (expected.error ?? '') : 'peer');
    }
    // every outcome was met: a peer, no peer, no compatible peer, a tip without preference
    assert.equal(seen.size, 4, [...seen].join(' | '));
  });

  it('among groups of equal size picks the lowest tip ID', () => {
    const peer = (n: number, id: Buffer): ConnectedPeer => ({
      peerId: `127.0.0.${n}:1`,
      options: { height: 9, maxHeightPrevoted: 3, blockVersion: 2, lastBlockID: id },
    });
    const peers = [peer(1, IDS[0] as Buffer), peer(2, IDS[1] as Buffer), peer(3, IDS[2] as Buffer)];
    assert.equal(computeBestPeer(peers, { height: 1, maxHeightPrevoted: 0 }, () => 0).peerId, '127.0.0.2:1');
  });
});

describe('mechanism choice', () => {
  it('block synchronization: more than three rounds of slots since the finalized block', () => {
    assert.equal(blockSynchronizationApplies(1000 + 309, 1000, 103), false);
    assert.equal(blockSynchronizationApplies(1000 + 310, 1000, 103), true);
  });

  it("fast chain switching: equals Klayr's isValidFor (a current validator of positive weight, within two rounds)", async () => {
    const rng = new Rng(3);
    const list = validators(51, [4, 9]);
    for (let i = 0; i < 500; i++) {
      const tipHeight = rng.int(400);
      const received = block(Math.max(0, tipHeight + rng.int(240) - 120), Buffer.alloc(20, 1 + rng.int(60)));
      const peerId = rng.int(5) === 0 ? '' : '127.0.0.1:1';
      const self = {
        _chain: { lastBlock: { header: { height: tipHeight } } },
        blockExecutor: { getCurrentValidators: async () => list },
      };
      assert.equal(
        fastChainSwitchingApplies(received.header, tipHeight, list, peerId),
        await FastChainSwitchingMechanism.prototype.isValidFor.call(self, received, peerId),
      );
    }
  });
});

/** A mechanism whose runs follow a script of outcomes. */
const scripted = (
  name: string,
  valid: boolean,
  outcomes: (Error | undefined)[] = [],
): SyncMechanism & { runs: number } => ({
  name,
  runs: 0,
  isValidFor: () => valid,
  async run() {
    const outcome = outcomes[this.runs];
    this.runs += 1;
    await new Promise((resolve) => setImmediate(resolve));
    if (outcome !== undefined) throw outcome;
  },
  stop: () => undefined,
});

const synchronizerWith = (
  mechanisms: SyncMechanism[],
  maxRestarts?: number,
  extra: Partial<Pick<SynchronizerOptions, 'startRefusal' | 'clock'>> = {},
) => {
  const penalties: [string, number][] = [];
  const synchronizer = new Synchronizer({
    mechanisms,
    validate: () => undefined,
    tip: () => block(1),
    peers: { applyPenalty: (peerId, penalty) => penalties.push([peerId, penalty]) },
    logger: silent,
    ...(maxRestarts !== undefined ? { maxRestarts } : {}),
    ...extra,
  });
  return { synchronizer, penalties };
};

describe('synchronizer', () => {
  it('runs the first valid mechanism in order, and none when none is valid', async () => {
    const first = scripted('first', false);
    const second = scripted('second', true);
    const third = scripted('third', true);
    await synchronizerWith([first, second, third]).synchronizer.run(block(5), 'p:1');
    assert.deepEqual([first.runs, second.runs, third.runs], [0, 1, 0]);
    const none = scripted('none', false);
    await synchronizerWith([none]).synchronizer.run(block(5), 'p:1');
    assert.equal(none.runs, 0);
  });

  it('is active already while the mechanism is chosen (synchronously, before any await)', async () => {
    const seen: boolean[] = [];
    const { synchronizer } = synchronizerWith([
      { ...scripted('m', true), isValidFor: () => seen.push(synchronizer.isActive) > 0 },
    ]);
    await synchronizer.run(block(5), 'p:1');
    assert.deepEqual(seen, [true]);
  });

  it('is active from start to end, and a second run meanwhile does nothing', async () => {
    const mechanism = scripted('m', true, [new RestartError('again')]);
    const { synchronizer } = synchronizerWith([mechanism]);
    assert.equal(synchronizer.isActive, false);
    const running = synchronizer.run(block(5), 'p:1');
    assert.equal(synchronizer.isActive, true);
    await synchronizer.run(block(6), 'p:2');
    await running;
    assert.equal(synchronizer.isActive, false);
    assert.equal(mechanism.runs, 2);
  });

  it('penalises the peer at fault and restarts on ApplyPenaltyAndRestartError; ends on AbortError', async () => {
    const mechanism = scripted('m', true, [
      new ApplyPenaltyAndRestartError('bad:1', 'invalid blocks'),
      new RestartError('again'),
      new AbortError('no preference'),
      undefined,
    ]);
    const { synchronizer, penalties } = synchronizerWith([mechanism]);
    await synchronizer.run(block(5), 'p:1');
    assert.equal(mechanism.runs, 3);
    assert.deepEqual(penalties, [['bad:1', 100]]);
  });

  it('penalises and ends on ApplyPenaltyAndAbortError; other errors reach the caller', async () => {
    const aborting = scripted('m', true, [new ApplyPenaltyAndAbortError('bad:2', 'undecodable'), undefined]);
    const { synchronizer, penalties } = synchronizerWith([aborting]);
    await synchronizer.run(block(5), 'p:1');
    assert.equal(aborting.runs, 1);
    assert.deepEqual(penalties, [['bad:2', 100]]);
    const failing = scripted('m', true, [new Error('peer gone')]);
    const other = synchronizerWith([failing]);
    await assert.rejects(() => other.synchronizer.run(block(5), 'p:1'), /peer gone/);
    assert.equal(other.synchronizer.isActive, false);
  });

  it('gives up after maxRestarts restarts in a row', async () => {
    const mechanism = scripted(
      'm',
      true,
      Array.from({ length: 10 }, () => new RestartError('again')),
    );
    await synchronizerWith([mechanism], 3).synchronizer.run(block(5), 'p:1');
    assert.equal(mechanism.runs, 4);
  });

  it('starts nothing from a block it refuses (a forged signature): never active, nobody penalised', async () => {
    const mechanism = scripted('m', true);
    const seen: boolean[] = [];
    const { synchronizer, penalties } = synchronizerWith([mechanism], undefined, {
      startRefusal: (b) => {
        seen.push(synchronizer.isActive);
        return b.header.height === 5 ? 'forged' : undefined;
      },
    });
    await synchronizer.run(block(5), 'p:1');
    assert.deepEqual([mechanism.runs, penalties.length, seen], [0, 0, [false]]);
    await synchronizer.run(block(6), 'p:1');
    assert.equal(mechanism.runs, 1);
  });

  it('refuses, for a while, the blocks of a peer whose block started a synchronization that failed (a request timed out), from any port', async () => {
    let now = 1_000_000;
    const mechanism = scripted('m', true, [
      new Error('timed out'),
      new AbortError('no better tip'),
      undefined,
      undefined,
    ]);
    const { synchronizer } = synchronizerWith([mechanism], undefined, { clock: () => now });
    await assert.rejects(() => synchronizer.run(block(5), '10.0.0.1:5000'), /timed out/);
    assert.equal(mechanism.runs, 1);
    await synchronizer.run(block(6), '10.0.0.1:5000');
    await synchronizer.run(block(6), '10.0.0.1:5001');
    assert.equal(mechanism.runs, 1, 'the same peer within the cool-down, reconnected from another port too');
    await synchronizer.run(block(6), '10.0.0.2:5000');
    assert.equal(mechanism.runs, 2, 'another peer starts one');
    await synchronizer.run(block(7), '10.0.0.2:5000');
    assert.equal(mechanism.runs, 3, 'an aborted synchronization (no better tip) is no failure');
    now += FAILED_SYNC_COOLDOWN_MS;
    await synchronizer.run(block(7), '10.0.0.1:5000');
    assert.equal(mechanism.runs, 4, 'the cool-down is over');
  });

  it('does not run after stop', async () => {
    const mechanism = scripted('m', true);
    const { synchronizer } = synchronizerWith([mechanism]);
    await synchronizer.stop();
    await synchronizer.run(block(5), 'p:1');
    assert.equal(mechanism.runs, 0);
  });
});

// The chain connector's store: what a block adds and a deletion removes, and the retention rule that keeps it bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { signTransaction } from '../../src/lib/transaction/index.js';
import { recordBlock } from '../../src/plugins/chain_connector/block_recorder.js';
import { KEEP_HEIGHTS, pruneStore, trimSentCCUs } from '../../src/plugins/chain_connector/retention.js';
import { ChainConnectorStore } from '../../src/plugins/chain_connector/store.js';
import type { OwnChainView } from '../../src/plugins/types.js';
import { Rng } from '../helpers/random.js';
import {
  emptyCommit,
  header,
  RECEIVING_CHAIN_ID,
  randomCCM,
  randomValidators,
  tempDir,
  validatorsData,
} from './fixtures.js';

const viewWith = (data: ReturnType<typeof validatorsData>): OwnChainView => ({
  chainID: Buffer.from('04000001', 'hex'),
  dataPath: '',
  syncing: () => false,
  bftHeights: () => ({ maxHeightPrevoted: 0, maxHeightPrecommitted: 0, maxHeightCertified: 0 }),
  activeValidatorsAt: () => data,
  invoke: async () => undefined,
  ccuBuilder: {
    build: async () => undefined,
    stats: () => ({ queued: 0, completed: 0, taskSeconds: 0 }),
    close: async () => undefined,
  },
});

describe('store: blocks in and out', () => {
  const rng = new Rng(61);
  const set = validatorsData(randomValidators(rng, 4), 30n, 0);

  it('keeps a block header, the aggregate commit it carries (by certified height), its CCMs and the validators data by hash', () => {
    const store = ChainConnectorStore.open(tempDir());
    const commit = { height: 3, aggregationBits: Buffer.from([0x0f]), certificateSignature: rng.bytes(96) };
    const h = header(rng, 5, set.validatorsHash, commit);
    const ccms = [randomCCM(rng, 5, 1n), randomCCM(rng, 5, 2n)];
    store.saveBlock({ header: h, ccms, validatorsData: { ...set, height: 5 } });
    assert.deepEqual(store.header(5), h);
    assert.deepEqual(store.aggregateCommit(3), commit);
    assert.deepEqual(store.ccmsBetween(0, 10), ccms);
    assert.deepEqual(store.validatorsData(set.validatorsHash), { ...set, height: 5 });
    void store.close();
  });

  it('does not keep an empty aggregate commit (Klayr keeps only signed ones)', () => {
    const store = ChainConnectorStore.open(tempDir());
    store.saveBlock({
      header: header(rng, 1, set.validatorsHash, emptyCommit(0)),
      ccms: [],
      validatorsData: { ...set, height: 1 },
    });
    assert.deepEqual(store.aggregateCommitsBetween(0, 10), []);
    void store.close();
  });

  it('ranges answer highest first, or lowest first for CCU building', () => {
    const store = ChainConnectorStore.open(tempDir());
    for (let height = 1; height <= 6; height++)
      store.saveBlock({
        header: header(rng, height, set.validatorsHash, emptyCommit(0)),
        ccms: [randomCCM(rng, height, BigInt(height))],
        validatorsData: { ...set, height },
      });
    assert.deepEqual(
      store.headersBetween(2, 4).map((h) => h.height),
      [4, 3, 2],
    );
    assert.deepEqual(
      store.ccmsBetween(2, 4).map((c) => c.height),
      [4, 3, 2],
    );
    assert.deepEqual(
      store.ccmsBetween(2, 4, 'ascending').map((c) => c.height),
      [2, 3, 4],
    );
    assert.deepEqual(store.headersBetween(5, 4), []);
    void store.close();
  });

  it('a deleted block takes its header, CCMs and commit away; validators data last seen there goes back to the block below', () => {
    const store = ChainConnectorStore.open(tempDir());
    const h1 = header(rng, 1, set.validatorsHash, emptyCommit(0));
    const h2 = header(rng, 2, set.validatorsHash, {
      height: 1,
      aggregationBits: Buffer.from([1]),
      certificateSignature: rng.bytes(96),
    });
    store.saveBlock({ header: h1, ccms: [], validatorsData: { ...set, height: 1 } });
    store.saveBlock({ header: h2, ccms: [randomCCM(rng, 2, 0n)], validatorsData: { ...set, height: 2 } });
    store.deleteBlock(h2);
    assert.equal(store.header(2), undefined);
    assert.equal(store.aggregateCommit(1), undefined);
    assert.deepEqual(store.ccmsBetween(0, 5), []);
    assert.equal(store.validatorsData(set.validatorsHash)?.height, 1);
    const other = validatorsData(randomValidators(rng, 2), 5n, 0);
    const h2b = header(rng, 2, other.validatorsHash, emptyCommit(0));
    store.saveBlock({ header: h2b, ccms: [], validatorsData: { ...other, height: 2 } });
    store.deleteBlock(h2b);
    assert.equal(store.validatorsData(other.validatorsHash), undefined);
    void store.close();
  });

  it('recordBlock keeps the CCMs of ccmSendSuccess and forwarded ccmProcessed events, for the receiving chain', async () => {
    const { klayrCodecEncodeEvents } = await import('./events_fixture.js');
    const store = ChainConnectorStore.open(tempDir());
    const h = header(rng, 9, set.validatorsHash, emptyCommit(0));
    const { events, expected } = klayrCodecEncodeEvents(rng, 9);
    recordBlock(store, viewWith(set), { header: h, events, assets: [] }, RECEIVING_CHAIN_ID, false);
    assert.deepEqual(store.ccmsBetween(9, 9), expected);
    // the validators data as Klayr's plugin keeps it: addresses empty
    assert.ok(store.validatorsData(set.validatorsHash)!.validators.every((v) => v.address.length === 0));
    void store.close();
  });
});

describe('store: retention', () => {
  const rng = new Rng(62);

  it(`stays bounded over 10,000 blocks without a CCU: the last ${KEEP_HEIGHTS} heights, the last certified one and its validators`, () => {
    const store = ChainConnectorStore.open(tempDir());
    const sets = [validatorsData(randomValidators(rng, 5), 40n, 0), validatorsData(randomValidators(rng, 5), 41n, 0)];
    store.setLastCertificate(7, sets[0]!.validatorsHash);
    const counts: number[] = [];
    for (let height = 1; height <= 10_000; height++) {
      // the validator set changes every 2,000 blocks
      const set = sets[Math.floor(height / 2000) % 2]!;
      const commit =
        height > 2
          ? { height: height - 2, aggregationBits: Buffer.from([0x1f]), certificateSignature: rng.bytes(96) }
          : emptyCommit(0);
      store.saveBlock({
        header: header(rng, height, set.validatorsHash, commit),
        ccms: [],
        validatorsData: { ...set, height },
      });
      pruneStore(store, height, 1, undefined);
      if (height % 1000 === 0) counts.push(store.count());
    }
    // headers and commits of the window, the header at the last certified height, two validators sets, metadata
    const bound = 2 * KEEP_HEIGHTS + 1 + 2 + 5;
    assert.ok(
      counts.every((c) => c <= bound),
      `entries every 1,000 blocks: ${counts.join(', ')} (bound ${bound})`,
    );
    // from the first full window on, the count no longer grows with the chain (it moves by the validators sets the window holds)
    assert.ok(Math.max(...counts.slice(1)) - Math.min(...counts.slice(1)) <= 1, counts.join(', '));
    assert.equal(store.headersKeptFrom, 10_000 - KEEP_HEIGHTS + 1);
    assert.ok(store.header(7) !== undefined, 'the header at the last certified height is kept');
    assert.ok(
      store.validatorsData(sets[0]!.validatorsHash) !== undefined,
      "the last certificate's validators are kept",
    );
    assert.equal(store.header(8), undefined);
    void store.close();
  });

  it('keeps, while nothing is certified yet, the first-certificate search range after registrationHeight', () => {
    const store = ChainConnectorStore.open(tempDir());
    const set = validatorsData(randomValidators(rng, 3), 20n, 0);
    for (let height = 1; height <= 2500; height++) {
      store.saveBlock({
        header: header(rng, height, set.validatorsHash, {
          height,
          aggregationBits: Buffer.from([7]),
          certificateSignature: rng.bytes(96),
        }),
        ccms: [],
        validatorsData: { ...set, height },
      });
      pruneStore(store, height, 100, undefined);
    }
    assert.ok(
      store.header(100) !== undefined && store.header(1100) !== undefined && store.aggregateCommit(1100) !== undefined,
    );
    assert.equal(store.header(99), undefined);
    assert.equal(store.header(1101), undefined);
    // once the receiving chain has certified a height, the search range goes
    store.setLastCertificate(2400, set.validatorsHash);
    store.saveBlock({
      header: header(rng, 2501, set.validatorsHash, emptyCommit(0)),
      ccms: [],
      validatorsData: { ...set, height: 2501 },
    });
    pruneStore(store, 2501, 100, undefined);
    assert.equal(store.header(100), undefined);
    void store.close();
  });

  it('keeps every CCM from the last sent one on, and drops the older ones', () => {
    const store = ChainConnectorStore.open(tempDir());
    const set = validatorsData(randomValidators(rng, 3), 20n, 0);
    for (let height = 1; height <= 3000; height++) {
      store.saveBlock({
        header: header(rng, height, set.validatorsHash, emptyCommit(0)),
        ccms: height % 500 === 0 ? [randomCCM(rng, height, BigInt(height))] : [],
        validatorsData: { ...set, height },
      });
      // the CCU carrying the CCM of height 1000 is included once the chain is at 1200
      pruneStore(store, height, 1, height >= 1200 ? 1000 : undefined);
    }
    assert.deepEqual(
      store.ccmsBetween(0, 3000, 'ascending').map((c) => c.height),
      [1000, 1500, 2000, 2500, 3000],
    );
    assert.equal(store.ccmsKeptFrom, 1000);
    void store.close();
  });

  it('trims sent CCUs to the newest ccuSaveLimit by nonce (-1 keeps all)', () => {
    const store = ChainConnectorStore.open(tempDir());
    const key = keyPairFromSeed(Buffer.alloc(32, 3));
    for (let nonce = 0n; nonce < 6n; nonce++)
      store.saveCCU(
        signTransaction(
          {
            module: 'interoperability',
            command: 'submitMainchainCrossChainUpdate',
            nonce,
            fee: 0n,
            senderPublicKey: key.publicKey,
            params: Buffer.alloc(4),
            signatures: [],
          },
          RECEIVING_CHAIN_ID,
          key.privateKey,
        ),
      );
    trimSentCCUs(store, -1);
    assert.equal(store.sentCCUs().length, 6);
    trimSentCCUs(store, 4);
    assert.deepEqual(
      store.sentCCUs().map((tx) => tx.nonce),
      [5n, 4n, 3n, 2n],
    );
    void store.close();
  });

  it('validators hashes are the LIP 0058 hash of the set (the fixtures use the real hash)', () => {
    const set = validatorsData(randomValidators(rng, 3), 20n, 0);
    assert.deepEqual(set.validatorsHash, computeValidatorsHash(set.validators, 20n));
    assert.equal(blockHeaderID(header(rng, 1, set.validatorsHash, emptyCommit(0))).length, 32);
  });
});

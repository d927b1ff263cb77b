// The CCU pieces against @klayr/chain-connector-plugin 0.2.2's exported functions, from the same data.
import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CCUBuilder } from '../../src/engine/pools/ccu_builder.js';
import { createLocalCCUBuilder } from '../../src/engine/pools/ccu_builder.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import type { CCMWithHeight } from '../../src/lib/interop/ccu_inbox_update.js';
import { calculateMessageWitnesses } from '../../src/lib/interop/ccu_inbox_update.js';
import {
  calculateActiveValidatorsUpdate,
  getActiveValidatorsUpdate,
} from '../../src/lib/interop/ccu_validators_update.js';
import { outboxRootStateTreeKey, outboxRootStoreKey } from '../../src/lib/interop/store_keys.js';
import { CCUSender } from '../../src/plugins/chain_connector/ccu_sender.js';
import type { LastCertificate } from '../../src/plugins/chain_connector/certificate_choice.js';
import {
  checkChainOfTrust,
  getNextCertificateFromAggregateCommits,
} from '../../src/plugins/chain_connector/certificate_choice.js';
import { CHAIN_CONNECTOR_DEFAULTS } from '../../src/plugins/chain_connector/config.js';
import type { OwnChainView, PluginLogger, RemoteChainClient } from '../../src/plugins/types.js';
import { checkedSnapshot, openReadOnly } from '../../src/storage/snapshot.js';
import { createPooledCCUBuilder } from '../../src/workers/ccu_builder.js';
import { klayrCodec } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';
import { openState, tempDataPath } from '../helpers/state.js';
import {
  aggregationBits,
  buildChain,
  klayrCertificateSchemas,
  klayrDBOver,
  klayrInteropSchemas,
  klayrPlugin,
  OWN_CHAIN_ID,
  RECEIVING_CHAIN_ID,
  randomCCM,
  randomValidators,
} from './fixtures.js';

const silent: PluginLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const klayrLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('inbox update (calculateMessageWitnesses)', () => {
  const rng = new Rng(41);
  it("equals Klayr's over 300 random cases: sizes, the last sent CCM skipped, maxCCUSize cut-offs", () => {
    for (let n = 0; n < 300; n++) {
      const count = rng.int(12);
      const ccms = Array.from({ length: count }, (_, i) =>
        randomCCM(rng, 5 + Math.floor(i / 3), BigInt(i), rng.int(400)),
      );
      const lastSent =
        rng.next() < 0.5 && count > 0 ? { height: ccms[0]!.height, nonce: ccms[0]!.nonce } : { height: 4, nonce: -1n };
      const inbox = 1 + rng.int(20);
      const outbox = rng.next() < 0.1 ? inbox : inbox + count;
      const max = rng.pick([1, 50, 200, 500, 1000, 10240]);
      const ours = calculateMessageWitnesses(inbox, outbox, lastSent, ccms, max);
      const theirs = klayrPlugin.inbox().calculateMessageWitnesses(inbox, outbox, lastSent, ccms, max);
      assert.deepEqual(ours.crossChainMessages, theirs.crossChainMessages, `case ${n}`);
      assert.deepEqual(ours.messageWitnessHashes, theirs.messageWitnessHashes, `case ${n}`);
      assert.deepEqual(ours.lastCCMToBeSent, theirs.lastCCMToBeSent, `case ${n}`);
    }
  });

  it('leaves out every CCM when the receiving inbox is not behind the outbox', () => {
    const ccms = [randomCCM(rng, 3, 1n)];
    assert.deepEqual(calculateMessageWitnesses(5, 5, { height: 0, nonce: -1n }, ccms, 10240), {
      crossChainMessages: [],
      messageWitnessHashes: [],
    });
  });
});

describe('active validators update', () => {
  const rng = new Rng(42);
  it("getActiveValidatorsUpdate equals Klayr's: added, removed and reweighted validators, bitmap over both sets", () => {
    for (let n = 0; n < 200; n++) {
      const current = randomValidators(rng, rng.int(12));
      const kept = current
        .filter(() => rng.next() < 0.6)
        .map((v) => (rng.next() < 0.3 ? { ...v, bftWeight: v.bftWeight + BigInt(1 + rng.int(5)) } : v));
      const next = [...kept, ...randomValidators(rng, rng.int(5))];
      assert.deepEqual(
        getActiveValidatorsUpdate(current, next),
        klayrPlugin.validators().getActiveValidatorsUpdate(current, next),
        `case ${n}`,
      );
    }
  });

  it("calculateActiveValidatorsUpdate equals Klayr's, with the same and with another threshold", () => {
    const a = randomValidators(rng, 6);
    const b = [...a.slice(1), ...randomValidators(rng, 2)];
    for (const [ta, tb] of [
      [40n, 40n],
      [40n, 55n],
    ] as const) {
      const last = { validators: a, certificateThreshold: ta, validatorsHash: rng.bytes(32) };
      const next = { validators: b, certificateThreshold: tb, validatorsHash: rng.bytes(32) };
      assert.deepEqual(
        calculateActiveValidatorsUpdate(last, next),
        klayrPlugin.validators().calculateActiveValidatorsUpdate(last, next),
      );
    }
  });

  it('an update between equal sets is empty with a zero bitmap of the set size', () => {
    const a = randomValidators(rng, 9);
    assert.deepEqual(getActiveValidatorsUpdate(a, a), {
      blsKeysUpdate: [],
      bftWeightsUpdate: [],
      bftWeightsUpdateBitmap: Buffer.alloc(2),
    });
  });
});

describe('certificate choice', () => {
  const rng = new Rng(43);
  const chain = buildChain(rng, { tip: 20, switchHeight: 16, ccmHeights: [] });
  const db = klayrDBOver(chain.store, () => []);
  const weights = new Map(chain.setA.validators.map((v) => [v.blsKey.toString('hex'), v.bftWeight]));
  const weightsObject = Object.fromEntries(weights);
  after(() => chain.store.close());

  it("checkChainOfTrust: a commit over the last certificate's validators is trusted, as Klayr", async () => {
    const commit = chain.store.aggregateCommit(14)!;
    assert.equal(checkChainOfTrust(chain.setA.validatorsHash, weights, 50n, commit, chain.store), true);
    assert.equal(
      await klayrPlugin.certificates().checkChainOfTrust(chain.setA.validatorsHash, weightsObject, 50n, commit, db),
      true,
    );
  });

  it('checkChainOfTrust: a signer unknown to the last validators breaks the chain of trust, as Klayr', async () => {
    const commit = chain.store.aggregateCommit(17)!;
    assert.equal(checkChainOfTrust(chain.setA.validatorsHash, weights, 50n, commit, chain.store), false);
    assert.equal(
      await klayrPlugin.certificates().checkChainOfTrust(chain.setA.validatorsHash, weightsObject, 50n, commit, db),
      false,
    );
  });

  it("checkChainOfTrust reads the aggregation bits as certificates do (Klayr's plugin reads their hex digits)", async () => {
    // only the validators of set B that were in set A sign, with enough of A's weight
    const b = [...chain.setB.validators].sort((x, y) => Buffer.compare(x.blsKey, y.blsKey));
    const known = b.flatMap((v, i) => (weights.has(v.blsKey.toString('hex')) ? [i] : []));
    const commit = {
      height: 17,
      aggregationBits: aggregationBits(b.length, known),
      certificateSignature: rng.bytes(96),
    };
    const knownWeight = known.reduce((sum, i) => sum + weights.get(b[i]!.blsKey.toString('hex'))!, 0n);
    assert.ok(knownWeight >= 50n);
    assert.equal(checkChainOfTrust(chain.setA.validatorsHash, weights, 50n, commit, chain.store), true);
    assert.equal(checkChainOfTrust(chain.setA.validatorsHash, weights, knownWeight + 1n, commit, chain.store), false);
    // Klayr's rule: validator i counts when the i-th hex digit of the bits is "1"
    const hex = commit.aggregationBits.toString('hex');
    const klayrRule = (() => {
      let weight = 0n;
      for (const [i, v] of b.entries()) {
        if (hex[i] !== '1') continue;
        const w = weights.get(v.blsKey.toString('hex'));
        if (w === undefined) return false;
        weight += w;
      }
      return weight >= 50n;
    })();
    assert.equal(
      await klayrPlugin.certificates().checkChainOfTrust(chain.setA.validatorsHash, weightsObject, 50n, commit, db),
      klayrRule,
    );
    assert.equal(klayrRule, false, 'here Klayr finds no signer and refuses what the receiving chain would accept');
  });

  it('checkChainOfTrust errors as Klayr when the header below the commit or its validators data is missing', async () => {
    const commit = { height: 40, aggregationBits: Buffer.alloc(1), certificateSignature: Buffer.alloc(96) };
    const expected = await klayrPlugin
      .certificates()
      .checkChainOfTrust(chain.setA.validatorsHash, weightsObject, 50n, commit, db)
      .catch((e: Error) => e.message);
    assert.throws(() => checkChainOfTrust(chain.setA.validatorsHash, weights, 50n, commit, chain.store), {
      message: expected,
    });
  });

  it("getNextCertificateFromAggregateCommits: the highest trusted commit after the last certificate, equal to Klayr's", async () => {
    for (const [lastHeight, maxHeightCertified] of [
      [10, 18],
      [10, 15],
      [14, 14],
      [3, 9],
    ] as const) {
      const last = { height: lastHeight };
      const ours = getNextCertificateFromAggregateCommits(chain.store, { maxHeightCertified }, last);
      const theirs = await klayrPlugin
        .certificates()
        .getNextCertificateFromAggregateCommits(db, { maxHeightCertified }, last);
      assert.deepEqual(ours, theirs, `last ${lastHeight}, certified ${maxHeightCertified}`);
    }
    assert.equal(
      getNextCertificateFromAggregateCommits(chain.store, { maxHeightCertified: 18 }, { height: 10 })?.height,
      16,
    );
  });

  it('getNextCertificateFromAggregateCommits errors as Klayr without the header at the last certified height', async () => {
    const expected = await klayrPlugin
      .certificates()
      .getNextCertificateFromAggregateCommits(db, { maxHeightCertified: 30 }, { height: 25 })
      .catch((e: Error) => e.message);
    assert.throws(
      () => getNextCertificateFromAggregateCommits(chain.store, { maxHeightCertified: 30 }, { height: 25 }),
      { message: expected },
    );
  });
});

/** A sending chain whose headers carry the state roots of a committed LMDB environment holding the outbox root to the receiving chain. */
const committedChain = (seed: number) => {
  const rng = new Rng(seed);
  const dataPath = tempDataPath();
  const state = openState(dataPath);
  const stateRoots = new Map<number, Buffer>();
  const outboxKey = outboxRootStoreKey(RECEIVING_CHAIN_ID);
  for (let height = 1; height <= 20; height++) {
    const overlay = state.newOverlay();
    overlay.set(outboxKey, rng.bytes(34));
    overlay.set(Buffer.concat([outboxKey.subarray(0, 6), rng.bytes(4)]), rng.bytes(10));
    stateRoots.set(height, state.commit(state.prepare(overlay), height));
  }
  const chain = buildChain(rng, { tip: 20, switchHeight: 16, ccmHeights: [10, 11, 12, 14, 16, 17], stateRoots });
  return { rng, dataPath, stateRoots, chain };
};

const overBoth = (suite: (builder: () => CCUBuilder) => void): void => {
  for (const [kind, create] of Object.entries({
    local: () => createLocalCCUBuilder(),
    pooled: () => createPooledCCUBuilder(1),
  })) {
    describe(kind, () => {
      let builder: CCUBuilder;
      before(() => {
        builder = create();
      });
      after(() => builder.close());
      suite(() => builder);
    });
  }
};

describe('the whole CCU', () => {
  const { dataPath, chain } = committedChain(44);
  const last: LastCertificate = {
    height: 10,
    timestamp: chain.headers.get(10)!.timestamp,
    stateRoot: chain.headers.get(10)!.stateRoot,
    validatorsHash: chain.setA.validatorsHash,
  };
  const inboxSize = 4;
  const outboxSize = inboxSize + chain.ccms.length;
  const maxCCUSize = 400;
  const ccmsInRange = (from: number, to: number) => chain.store.ccmsBetween(from, to, 'ascending');
  after(() => chain.store.close());

  const klayrCCU = async (lastCertificate: LastCertificate = last) => {
    const { CCUHandler } = klayrPlugin.ccuHandler();
    const handler = new CCUHandler({
      maxCCUSize,
      ownChainID: OWN_CHAIN_ID,
      receivingChainID: RECEIVING_CHAIN_ID,
      registrationHeight: 1,
      ccuFee: '0',
      isSaveCCU: false,
      noFeeHeight: 0,
    });
    const dbs = openReadOnly(dataPath);
    handler.load({
      db: klayrDBOver(chain.store, ccmsInRange),
      logger: klayrLogger,
      lastCertificate,
      receivingChainAPIClient: { getChannelAccount: async () => ({ inbox: { size: inboxSize } }) },
      sendingChainAPIClient: {
        getChannelAccount: async () => ({ outbox: { size: outboxSize } }),
        getBFTHeights: async () => ({ maxHeightCertified: 18 }),
        getSavedInclusionProofAtHeight: async (height: number) => ({
          proof: checkedSnapshot(dbs, height, chain.headers.get(height)!.stateRoot).prove([
            outboxRootStateTreeKey(RECEIVING_CHAIN_ID),
          ]),
        }),
      },
      interoperabilityMetadata: {
        stores: [{ key: '83ed0d250000', data: { $id: '/modules/interoperability/outbox' } }],
      },
    });
    return handler.computeCCU(lastCertificate, undefined);
  };

  const sender = (builder: CCUBuilder, maxHeightCertified = 18) => {
    const chainView: OwnChainView = {
      chainID: OWN_CHAIN_ID,
      dataPath,
      syncing: () => false,
      bftHeights: () => ({ maxHeightPrevoted: 19, maxHeightPrecommitted: 18, maxHeightCertified }),
      activeValidatorsAt: () => chain.setB,
      invoke: async (method) => {
        assert.equal(method, 'interoperability_getChannel');
        return { outbox: { size: outboxSize } };
      },
      ccuBuilder: builder,
    };
    return new CCUSender({
      config: { ...CHAIN_CONNECTOR_DEFAULTS, maxCCUSize, receivingChainID: '04000000', encryptedPrivateKey: '' },
      store: chain.store,
      chain: chainView,
      logger: silent,
      receivingChainID: RECEIVING_CHAIN_ID,
      receivingIsMainchain: true,
      privateKey: () => undefined,
    });
  };
  const remote: RemoteChainClient = {
    invoke: async (method) => {
      assert.equal(method, 'interoperability_getChannel');
      return { inbox: { size: inboxSize } };
    },
    close: async () => undefined,
  };

  overBoth((builder) => {
    it("the params bytes and the last CCM to send equal Klayr's CCUHandler.computeCCU: certificate, validators update, CCMs and witnesses", async () => {
      const theirs = await klayrCCU();
      const ours = await sender(builder()).computeCCU(last, remote);
      assert.ok(ours !== undefined);
      const schema = klayrInteropSchemas().crossChainUpdateTransactionParams;
      assert.deepEqual(ours.params, klayrCodec.codec.encode(schema, theirs.ccuParams));
      assert.deepEqual(ours.lastCCMToBeSent, theirs.lastCCMToBeSent);
      // the case covers every part: a validator change, CCMs carried and CCMs left to witnesses
      assert.ok(theirs.ccuParams.activeValidatorsUpdate.blsKeysUpdate.length > 0);
      assert.ok(
        theirs.ccuParams.inboxUpdate.crossChainMessages.length > 0 &&
          theirs.ccuParams.inboxUpdate.messageWitnessHashes.length > 0,
      );
      assert.ok(theirs.ccuParams.inboxUpdate.outboxRootWitness.siblingHashes.length > 0);
    });

    it("the first CCU (nothing certified yet) certifies the highest aggregate commit from registrationHeight on, as Klayr's _findCertificate", async () => {
      const first: LastCertificate = {
        height: 0,
        timestamp: 0,
        stateRoot: Buffer.alloc(32),
        validatorsHash: chain.setA.validatorsHash,
      };
      const theirs = await klayrCCU(first);
      const ours = (await sender(builder()).computeCCU(first, remote))!;
      assert.deepEqual(
        ours.params,
        klayrCodec.codec.encode(klayrInteropSchemas().crossChainUpdateTransactionParams, theirs.ccuParams),
      );
      assert.deepEqual(ours.lastCCMToBeSent, theirs.lastCCMToBeSent);
      assert.equal(
        klayrCodec.codec.decode(klayrCertificateSchemas().certificateSchema, theirs.ccuParams.certificate).height,
        18,
      );
    });

    it('counts its tasks', async () => {
      const before = builder().stats().completed;
      await sender(builder()).computeCCU(last, remote);
      assert.equal(builder().stats().completed, before + 1);
      assert.equal(builder().stats().queued, 0);
    });

    it("decodes with klayr-framework's crossChainUpdateTransactionParams and certificateSchema to the certified block", async () => {
      const ours = (await sender(builder()).computeCCU(last, remote))!;
      const params = klayrCodec.codec.decode(klayrInteropSchemas().crossChainUpdateTransactionParams, ours.params);
      klayrCodec.validateSchema(klayrInteropSchemas().crossChainUpdateTransactionParams);
      assert.deepEqual(params.sendingChainID, OWN_CHAIN_ID);
      assert.equal(params.certificateThreshold, chain.setB.certificateThreshold);
      const certificate = klayrCodec.codec.decode(klayrCertificateSchemas().certificateSchema, params.certificate);
      assert.equal(certificate.height, 16);
      assert.deepEqual(certificate.blockID, blockHeaderID(chain.headers.get(16)!));
      assert.deepEqual(certificate.stateRoot, chain.headers.get(16)!.stateRoot);
    });

    it('without a new certificate, pending CCMs go with an empty certificate and witness', async () => {
      const none = {
        height: 14,
        timestamp: 0,
        stateRoot: chain.headers.get(14)!.stateRoot,
        validatorsHash: chain.setA.validatorsHash,
      };
      const ours = (await sender(builder(), 14).computeCCU(none, remote))!;
      const params = klayrCodec.codec.decode(klayrInteropSchemas().crossChainUpdateTransactionParams, ours.params);
      assert.equal(params.certificate.length, 0);
      assert.deepEqual(params.inboxUpdate.outboxRootWitness, { bitmap: Buffer.alloc(0), siblingHashes: [] });
      assert.equal(params.inboxUpdate.crossChainMessages.length, chain.ccms.filter((c) => c.height === 14).length);
      assert.equal(params.certificateThreshold, chain.setA.certificateThreshold);
    });

    it('without a new certificate and without pending CCMs there is nothing to send', async () => {
      const none = {
        height: 13,
        timestamp: 0,
        stateRoot: chain.headers.get(13)!.stateRoot,
        validatorsHash: chain.setA.validatorsHash,
      };
      assert.equal(await sender(builder(), 13).computeCCU(none, remote), undefined);
    });

    it('refuses a snapshot whose root differs from the certificate state root', async () => {
      const ccm: CCMWithHeight = chain.ccms[0]!;
      const certificate = {
        blockID: Buffer.alloc(32),
        height: 16,
        timestamp: 1,
        stateRoot: Buffer.alloc(32, 7),
        validatorsHash: chain.setA.validatorsHash,
        aggregationBits: Buffer.alloc(1),
        signature: Buffer.alloc(96),
      };
      await assert.rejects(
        builder().build({
          dataPath,
          sendingChainID: OWN_CHAIN_ID,
          certificate,
          validatorsAtLastCertificate: chain.setA,
          outboxRootStoreKey: outboxRootStoreKey(RECEIVING_CHAIN_ID),
          inboxSizeOnReceivingChain: 0,
          outboxSizeOnSendingChain: 1,
          lastSentCCM: { height: 0, nonce: -1n },
          ccms: [ccm],
          maxCCUSize: 10240,
        }),
        /Snapshot mismatch at height 16/,
      );
    });

    it('refuses a certificate of a height the store never committed', async () => {
      const certificate = {
        blockID: Buffer.alloc(32),
        height: 500,
        timestamp: 1,
        stateRoot: Buffer.alloc(32, 7),
        validatorsHash: chain.setA.validatorsHash,
        aggregationBits: Buffer.alloc(1),
        signature: Buffer.alloc(96),
      };
      await assert.rejects(
        builder().build({
          dataPath,
          sendingChainID: OWN_CHAIN_ID,
          certificate,
          validatorsAtLastCertificate: chain.setA,
          outboxRootStoreKey: outboxRootStoreKey(RECEIVING_CHAIN_ID),
          inboxSizeOnReceivingChain: 0,
          outboxSizeOnSendingChain: 0,
          lastSentCCM: { height: 0, nonce: -1n },
          ccms: [],
          maxCCUSize: 10240,
        }),
        /Snapshot mismatch at height 500/,
      );
    });
  });
});

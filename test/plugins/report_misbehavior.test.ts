// The reportMisbehavior plugin (@klayr/report-misbehavior-plugin 0.5.2) on its own: the contradiction rule against
// klayr-framework's, the header store, the authorize endpoint, and what it posts, over a fake chain view.
import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID, encodeBlockHeader, signBlockHeader } from '../../src/lib/chain/block.js';
import { areDistinctHeadersContradicting } from '../../src/lib/chain/contradiction.js';
import type { Endpoints } from '../../src/lib/endpoint/definition.js';
import { PluginHost } from '../../src/plugins/host.js';
import { REPORT_MISBEHAVIOR_DEFAULTS, reportMisbehaviorConfig } from '../../src/plugins/report_misbehavior/config.js';
import { INVALID_PASSWORD } from '../../src/plugins/report_misbehavior/endpoints.js';
import { REPORTABLE_HEIGHTS, ReportMisbehaviorPlugin } from '../../src/plugins/report_misbehavior/index.js';
import { MAX_HEADERS_PER_HEIGHT, MisbehaviorStore } from '../../src/plugins/report_misbehavior/store.js';
import type { OwnChainView, Plugin, PluginContext } from '../../src/plugins/types.js';
import { devValidator } from '../helpers/devnet.js';
import { klayrChain, klayrCodec, klayrCrypto } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';
import { tempDir } from './fixtures.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const klayrBFTUtils: any = require('klayr-framework/dist-node/engine/bft/utils');
const klayrPoSSchemas: any = require('klayr-framework/dist-node/modules/pos/schemas.js');
/* eslint-enable @typescript-eslint/no-explicit-any */

const CHAIN_ID = Buffer.from('04000000', 'hex');
const PASSWORD = 'correct horse';

/** A header of `generator` with the given BFT properties; `salt` makes distinct headers with equal properties. */
const headerOf = (
  generator: Buffer,
  height: number,
  maxHeightGenerated: number,
  maxHeightPrevoted: number,
  salt = 0,
): BlockHeader => ({
  version: 2,
  timestamp: 1_700_000_000 + height * 10,
  height,
  previousBlockID: Buffer.alloc(32, height & 0xff),
  generatorAddress: generator,
  transactionRoot: Buffer.alloc(32, 1),
  assetRoot: Buffer.alloc(32, 2),
  eventRoot: Buffer.alloc(32, 3),
  stateRoot: Buffer.alloc(32, salt),
  maxHeightPrevoted,
  maxHeightGenerated,
  impliesMaxPrevotes: true,
  validatorsHash: Buffer.alloc(32, 4),
  aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
  signature: Buffer.alloc(64),
});

const signedBy = (header: BlockHeader, privateKeyHex: string): BlockHeader => {
  const { signature: _unsigned, ...unsigned } = header;
  return signBlockHeader(unsigned, CHAIN_ID, Buffer.from(privateKeyHex, 'hex'));
};

const encryptKey = async (privateKeyHex: string, password: string): Promise<string> =>
  klayrCrypto.encrypt.stringifyEncryptedMessage(
    await klayrCrypto.encrypt.encryptMessageWithPassword(privateKeyHex, password, {
      kdfparams: { memorySize: 1024, iterations: 1, parallelism: 1 },
    }),
  );

describe('the contradiction rule (src/lib/chain/contradiction.ts)', () => {
  it("agrees with klayr-framework's BFT areDistinctHeadersContradicting on generated pairs", () => {
    const rng = new Rng(58);
    const addresses = [Buffer.alloc(20, 1), Buffer.alloc(20, 2)];
    const random = () => ({
      generatorAddress: rng.pick(addresses),
      height: rng.int(10),
      maxHeightGenerated: rng.int(10),
      maxHeightPrevoted: rng.int(10),
    });
    const verdicts = { true: 0, false: 0 };
    for (let i = 0; i < 20_000; i++) {
      const a = random();
      const b = random();
      const expected = klayrBFTUtils.areDistinctHeadersContradicting(a, b) as boolean;
      assert.equal(areDistinctHeadersContradicting(a, b), expected, JSON.stringify([a, b]));
      verdicts[`${expected}`]++;
    }
    // both verdicts are well represented, so a rule that always answers one of them fails
    assert.ok(verdicts.true > 2000 && verdicts.false > 2000, JSON.stringify(verdicts));
  });
});

describe('the header store (<dataPath>/plugins/report_misbehavior)', () => {
  const generator = Buffer.alloc(20, 7);

  it('keeps a header once (by block ID), at most MAX_HEADERS_PER_HEIGHT per generator and height, and refuses a malformed address', async () => {
    const store = MisbehaviorStore.open(tempDir());
    try {
      const first = headerOf(generator, 10, 9, 8);
      assert.equal(store.save(first), 'saved');
      assert.equal(store.save({ ...first }), 'known');
      for (let salt = 1; salt < MAX_HEADERS_PER_HEIGHT; salt++)
        assert.equal(store.save(headerOf(generator, 10, 9, 8, salt)), 'saved');
      assert.equal(store.save(headerOf(generator, 10, 9, 8, 99)), 'full');
      assert.equal(store.headersAt(generator, 10).length, MAX_HEADERS_PER_HEIGHT);
      assert.deepEqual(blockHeaderID(store.headersAt(generator, 10)[0]!), blockHeaderID(first));
      // headers alike but for their content contradict each other, never themselves: the first other one kept
      assert.deepEqual(blockHeaderID(store.contradicting(first)!), blockHeaderID(headerOf(generator, 10, 9, 8, 1)));
      assert.deepEqual(blockHeaderID(store.contradicting(headerOf(generator, 10, 9, 8, 1))!), blockHeaderID(first));
      // another generator or height has room of its own
      assert.equal(store.save(headerOf(Buffer.alloc(20, 8), 10, 9, 8, 99)), 'saved');
      assert.equal(store.save(headerOf(generator, 11, 9, 8, 99)), 'saved');
      assert.throws(() => store.save(headerOf(Buffer.alloc(3), 10, 9, 8)), /generator address has 20 bytes, got 3/);
      assert.equal(store.entries(), 3);
    } finally {
      await store.close();
    }
  });

  it("finds the first kept header Klayr's plugin would find (by height, then arrival) for generated sequences", async () => {
    const rng = new Rng(4);
    const store = MisbehaviorStore.open(tempDir());
    const generators = [Buffer.alloc(20, 1), Buffer.alloc(20, 2), Buffer.alloc(20, 3)];
    // the oracle: every kept header in arrival order, scanned as Klayr's getContradictingBlockHeader scans its DB
    const kept: { header: BlockHeader; id: Buffer }[] = [];
    let found = 0;
    try {
      for (let i = 0; i < 600; i++) {
        const header = headerOf(rng.pick(generators), rng.int(40), rng.int(40), rng.int(40), rng.int(3));
        const outcome = store.save(header);
        const id = blockHeaderID(header);
        const same = kept.filter((k) => k.header.generatorAddress.equals(header.generatorAddress));
        if (same.some((k) => k.id.equals(id))) {
          assert.equal(outcome, 'known');
          continue;
        }
        if (same.filter((k) => k.header.height === header.height).length >= MAX_HEADERS_PER_HEIGHT) {
          assert.equal(outcome, 'full');
          continue;
        }
        assert.equal(outcome, 'saved');
        kept.push({ header, id });
        const expected = same
          .map((k, arrival) => ({ ...k, arrival }))
          .sort((x, y) => x.header.height - y.header.height || x.arrival - y.arrival)
          .find((k) => klayrBFTUtils.areDistinctHeadersContradicting(k.header, header))?.header;
        const actual = store.contradicting(header);
        assert.equal(actual === undefined, expected === undefined, `header ${i}`);
        if (expected !== undefined && actual !== undefined) {
          assert.deepEqual(blockHeaderID(actual), blockHeaderID(expected), `header ${i}`);
          found++;
        }
      }
      assert.ok(found > 50 && found < kept.length, `${found} of ${kept.length} contradicted a kept header`);
    } finally {
      await store.close();
    }
  });

  it('clears every header below a height and nothing else', async () => {
    const store = MisbehaviorStore.open(tempDir());
    try {
      for (const g of [1, 2]) for (let h = 1; h <= 20; h++) store.save(headerOf(Buffer.alloc(20, g), h, h - 1, 0));
      assert.equal(store.clearBelow(0), 0);
      assert.equal(store.clearBelow(11), 20);
      assert.equal(store.entries(), 20);
      assert.equal(store.headersAt(Buffer.alloc(20, 1), 10).length, 0);
      assert.equal(store.headersAt(Buffer.alloc(20, 2), 11).length, 1);
      // a header below the cleared ones no longer contradicts anything
      assert.equal(store.contradicting(headerOf(Buffer.alloc(20, 1), 5, 4, 0, 9)), undefined);
      assert.equal(store.contradicting(headerOf(Buffer.alloc(20, 1), 15, 14, 0, 9))?.height, 15);
    } finally {
      await store.close();
    }
  });
});

describe('plugins.reportMisbehavior', () => {
  it("takes Klayr's defaults and refuses values that break the schema, naming each", () => {
    assert.deepEqual(reportMisbehaviorConfig({}), REPORT_MISBEHAVIOR_DEFAULTS);
    assert.deepEqual(REPORT_MISBEHAVIOR_DEFAULTS, {
      clearBlockHeadersInterval: 60000,
      encryptedPrivateKey: '',
      defaultPassword: '',
      fee: 100000000,
    });
    assert.equal(reportMisbehaviorConfig({ fee: 5 }).fee, 5);
    assert.throws(
      () => reportMisbehaviorConfig({ fee: -1, clearBlockHeadersInterval: 1.5, encryptedPrivateKey: 3 }),
      (e: Error) =>
        /plugins\.reportMisbehavior\.fee: must be >= 0/.test(e.message) &&
        /plugins\.reportMisbehavior\.clearBlockHeadersInterval: should be of type 'integer'/.test(e.message) &&
        /plugins\.reportMisbehavior\.encryptedPrivateKey: should be of type 'string'/.test(e.message),
    );
    assert.throws(() => reportMisbehaviorConfig('x'), /plugins\.reportMisbehavior: should be of type 'object'/);
  });
});

/** A started plugin over a fake chain view that records what it is asked. */
const startedPlugin = async (config: Record<string, unknown>, tipHeight = 100) => {
  const validator = devValidator(3);
  const reporter = devValidator(5);
  const posted: Buffer[] = [];
  const endpoints: Endpoints[] = [];
  const chain = {
    chainID: CHAIN_ID,
    dataPath: tempDir(),
    invoke: async (method: string, params: Record<string, unknown> = {}) => {
      switch (method) {
        case 'chain_getLastBlock':
          return { header: { height: tipHeight } };
        case 'validators_getValidator':
          return { generatorKey: params.address === validator.address ? validator.plain.generatorKey : '', blsKey: '' };
        case 'system_getMetadata':
          return {
            modules: [
              {
                name: 'pos',
                commands: [{ name: 'reportMisbehavior', params: klayrPoSSchemas.reportMisbehaviorCommandParamsSchema }],
              },
            ],
          };
        case 'auth_getAuthAccount':
          assert.equal(params.address, reporter.address);
          return { nonce: '7', numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };
        case 'txpool_postTransaction':
          posted.push(Buffer.from(params.transaction as string, 'hex'));
          return { transactionId: '' };
        default:
          throw new Error(`Method ${method} is not registered on this node`);
      }
    },
  } as unknown as OwnChainView;
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const plugin = new ReportMisbehaviorPlugin();
  const context: PluginContext = {
    config: { encryptedPrivateKey: await encryptKey(reporter.privateKey, PASSWORD), ...config },
    dataPath: tempDir(),
    logger: silent,
    chain,
    registerEndpoints: (e) => endpoints.push(e),
    connect: () => Promise.reject(new Error('no remote chains here')),
  };
  await plugin.start(context);
  const authorize = required(endpoints[0]?.authorize);
  const call = (params: Record<string, unknown>) => Promise.resolve(authorize.handler({ params, transport: 'ipc' }));
  const address = Buffer.from(klayrCrypto.address.getAddressFromKlayr32Address(validator.address));
  const signed = (height: number, salt: number, key = validator.plain.generatorPrivateKey) =>
    signedBy(headerOf(address, height, height - 1, height - 3, salt), key);
  return { plugin, posted, authorize: call, signed, address, reporter };
};

/** Resolves when `predicate` holds, polling every 10 ms; rejects after `timeoutMs`. */
const waitFor = async (predicate: () => boolean, timeoutMs: number, what: string): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

const required = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error('missing');
  return value;
};

describe('the plugin host', () => {
  it('hands each received header, in order and queued with committed blocks, to the plugins that take them', async () => {
    const seen: string[] = [];
    const plugin = (name: string, receives: boolean): Plugin => ({
      name,
      directory: name,
      start: async () => undefined,
      stop: async () => undefined,
      blockCommitted: async (block) => {
        await new Promise((r) => setTimeout(r, 5));
        seen.push(`${name} committed ${block.header.height}`);
      },
      blockDeleted: async () => undefined,
      ...(receives
        ? { blockReceived: async (header: BlockHeader) => void seen.push(`${name} received ${header.height}`) }
        : {}),
    });
    const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const host = new PluginHost({
      dataPath: tempDir(),
      chain: {} as OwnChainView,
      logger: { ...silent, child: () => silent },
      registerEndpoints: () => undefined,
      connect: () => Promise.reject(new Error('none')),
      configOf: () => ({}),
    });
    await host.start(plugin('a', true));
    await host.start(plugin('b', false));
    const generator = Buffer.alloc(20, 1);
    host.blockCommitted({ header: headerOf(generator, 5, 4, 0), events: [], assets: [] });
    host.blockReceived(headerOf(generator, 6, 5, 0));
    host.blockReceived(headerOf(generator, 3, 2, 0));
    await host.idle();
    assert.deepEqual(
      seen.filter((s) => s.startsWith('a')),
      ['a committed 5', 'a received 6', 'a received 3'],
    );
    assert.deepEqual(
      seen.filter((s) => s.startsWith('b')),
      ['b committed 5'],
    );
    await host.stop();
  });
});

describe('reportMisbehavior_authorize', () => {
  it('refuses a wrong password (enabling or disabling), enables and disables with the right one', async () => {
    const { plugin, authorize } = await startedPlugin({});
    try {
      await assert.rejects(authorize({ password: 'wrong', enable: true }), { message: INVALID_PASSWORD });
      assert.equal(plugin.enabled, false);
      assert.deepEqual(await authorize({ password: PASSWORD, enable: true }), {
        result: 'Successfully enabled the reporting of misbehavior.',
      });
      assert.equal(plugin.enabled, true);
      await assert.rejects(authorize({ password: 'wrong', enable: false }), { message: INVALID_PASSWORD });
      assert.equal(plugin.enabled, true, 'a refused disable changes nothing');
      assert.deepEqual(await authorize({ password: PASSWORD, enable: false }), {
        result: 'Successfully disabled the reporting of misbehavior.',
      });
      assert.equal(plugin.enabled, false);
    } finally {
      await plugin.stop();
    }
  });

  it('refuses every password while no encryptedPrivateKey is set (the default)', async () => {
    const { plugin, authorize } = await startedPlugin({ encryptedPrivateKey: '' });
    try {
      await assert.rejects(authorize({ password: PASSWORD, enable: true }), { message: INVALID_PASSWORD });
      assert.equal(plugin.enabled, false);
    } finally {
      await plugin.stop();
    }
  });
});

describe('headers received from peers', () => {
  it('two contradicting headers of one validator: posts pos:reportMisbehavior that Klayr decodes, signed by the reporter, with the fee set', async () => {
    const { plugin, posted, authorize, signed, reporter } = await startedPlugin({ fee: 12345 });
    try {
      await authorize({ password: PASSWORD, enable: true });
      const first = signed(90, 1);
      const second = signed(90, 2);
      await plugin.blockReceived(first);
      assert.equal(posted.length, 0, 'one header proves nothing');
      await plugin.blockReceived(second);
      assert.equal(posted.length, 1);
      const tx = klayrChain.Transaction.fromBytes(posted[0]);
      tx.validate();
      assert.equal(tx.module, 'pos');
      assert.equal(tx.command, 'reportMisbehavior');
      assert.equal(tx.nonce, 7n);
      assert.equal(tx.fee, 12345n);
      assert.equal(tx.senderPublicKey.toString('hex'), reporter.publicKey);
      assert.ok(
        klayrCrypto.ed.verifyData(
          klayrChain.TAG_TRANSACTION,
          CHAIN_ID,
          tx.getSigningBytes(),
          tx.signatures[0],
          tx.senderPublicKey,
        ),
      );
      const params = klayrCodec.codec.decode(klayrPoSSchemas.reportMisbehaviorCommandParamsSchema, tx.params);
      // as Klayr's plugin: header1 is the header kept before, header2 the one just received
      assert.deepEqual(params.header1, encodeBlockHeader(first));
      assert.deepEqual(params.header2, encodeBlockHeader(second));
      const [h1, h2] = [params.header1, params.header2].map((b: Buffer) => klayrChain.BlockHeader.fromBytes(b));
      assert.equal(klayrBFTUtils.areDistinctHeadersContradicting(h1, h2), true);
      // the same header again is already kept: no second report
      await plugin.blockReceived(second);
      assert.equal(posted.length, 1);
    } finally {
      await plugin.stop();
    }
  });

  it('keeps a contradiction it sees while disabled, without posting', async () => {
    const { plugin, posted, signed, address } = await startedPlugin({});
    try {
      await plugin.blockReceived(signed(90, 1));
      await plugin.blockReceived(signed(90, 2));
      assert.equal(posted.length, 0);
      assert.equal(plugin.store?.headersAt(address, 90).length, 2);
    } finally {
      await plugin.stop();
    }
  });

  it('keeps no header its generator did not sign, of no validator, or too far from the tip to be reported', async () => {
    const { plugin, posted, authorize, signed, address } = await startedPlugin({}, 300_000);
    try {
      await authorize({ password: PASSWORD, enable: true });
      const near = 300_000 - 10;
      // signed with another validator's generator key
      await plugin.blockReceived(signed(near, 1, devValidator(4).plain.generatorPrivateKey));
      await plugin.blockReceived(signed(near, 2, devValidator(4).plain.generatorPrivateKey));
      assert.equal(plugin.store?.headersAt(address, near).length, 0);
      // an address that is no validator
      const stranger = Buffer.alloc(20, 9);
      await plugin.blockReceived(
        signedBy(headerOf(stranger, near, near - 1, 0), devValidator(3).plain.generatorPrivateKey),
      );
      assert.equal(plugin.store?.headersAt(stranger, near).length, 0);
      // REPORTABLE_HEIGHTS below or above the tip
      for (const height of [300_000 - REPORTABLE_HEIGHTS, 300_000 + REPORTABLE_HEIGHTS]) {
        await plugin.blockReceived(signed(height, 1));
        await plugin.blockReceived(signed(height, 2));
        assert.equal(plugin.store?.headersAt(address, height).length, 0, `height ${height}`);
      }
      assert.equal(posted.length, 0);
      await plugin.blockReceived(signed(300_000 - REPORTABLE_HEIGHTS + 1, 1));
      assert.equal(plugin.store?.entries(), 1);
    } finally {
      await plugin.stop();
    }
  });

  it('clears the headers that fell REPORTABLE_HEIGHTS below the tip every clearBlockHeadersInterval ms', async () => {
    const { plugin, signed, address } = await startedPlugin({ clearBlockHeadersInterval: 20 });
    try {
      await plugin.blockReceived(signed(50, 1));
      await plugin.blockReceived(signed(150, 1));
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(plugin.store?.entries(), 2, 'nothing is old yet');
      const header = (height: number) => ({ ...headerOf(address, height, 0, 0) });
      await plugin.blockCommitted({ header: header(REPORTABLE_HEIGHTS + 100), events: [], assets: [] });
      await waitFor(() => plugin.store?.entries() === 1, 3000, 'the header at height 50 cleared');
      assert.equal(plugin.store?.headersAt(address, 150).length, 1);
    } finally {
      await plugin.stop();
    }
  });
});

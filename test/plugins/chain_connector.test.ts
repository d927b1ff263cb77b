// The chainConnector plugin: config, endpoints, authorization, and the decision to send a CCU against a stand-in receiving chain.
import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalCCUBuilder } from '../../src/engine/pools/ccu_builder.js';
import { addressFromPublicKey, addressToKlayr32, keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { outboxRootStoreKey } from '../../src/lib/interop/store_keys.js';
import {
  computeMinFee,
  decodeTransaction,
  transactionID,
  verifyTransactionSignatures,
} from '../../src/lib/transaction/index.js';
import { CHAIN_CONNECTOR_DEFAULTS, chainConnectorConfig } from '../../src/plugins/chain_connector/config.js';
import { ChainConnectorPlugin } from '../../src/plugins/chain_connector/index.js';
import { decryptRelayerKey, parseEncryptedMessage } from '../../src/plugins/chain_connector/relayer_key.js';
import { KEEP_HEIGHTS } from '../../src/plugins/chain_connector/retention.js';
import { PluginHost } from '../../src/plugins/host.js';
import type {
  CommittedBlock,
  OwnChainView,
  Plugin,
  PluginContext,
  PluginLogger,
  RemoteChainClient,
} from '../../src/plugins/types.js';
import { createAccessCheck } from '../../src/rpc/access.js';
import { EndpointRegistry } from '../../src/rpc/registry.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';
import { openState, tempDataPath } from '../helpers/state.js';
import { buildChain, OWN_CHAIN_ID, RECEIVING_CHAIN_ID, tempDir } from './fixtures.js';

const silent: PluginLogger & { child: () => PluginLogger } = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};
const relayer = keyPairFromSeed(Buffer.alloc(32, 21));
const PASSWORD = 'relayer password';

/** The relayer key encrypted as Klayr's plugin expects it (@klayr/cryptography, a small argon2id memory to keep the test fast). */
const encryptedRelayerKey = async (): Promise<string> =>
  klayrCrypto.encrypt.stringifyEncryptedMessage(
    await klayrCrypto.encrypt.encryptMessageWithPassword(relayer.privateKey.toString('hex'), PASSWORD, {
      kdfparams: { memorySize: 1024, iterations: 1, parallelism: 1 },
    }),
  );

describe('plugins.chainConnector config', () => {
  const base = {
    receivingChainID: '04000000',
    encryptedPrivateKey: 'kdf=argon2id',
    receivingChainWsURL: 'ws://127.0.0.1:1/rpc-ws',
  };
  it("takes Klayr's defaults: ccuFrequency 1, ccuFee 0, isSaveCCU false, maxCCUSize 10240, registrationHeight 1, ccuSaveLimit 300, noFeeHeight 0", () => {
    assert.deepEqual(chainConnectorConfig(base, OWN_CHAIN_ID), {
      ...base,
      ccuFrequency: 1,
      ccuFee: '0',
      isSaveCCU: false,
      maxCCUSize: 10240,
      registrationHeight: 1,
      ccuSaveLimit: 300,
      noFeeHeight: 0,
    });
    assert.deepEqual(CHAIN_CONNECTOR_DEFAULTS, {
      ccuFrequency: 1,
      ccuFee: '0',
      isSaveCCU: false,
      maxCCUSize: 10240,
      registrationHeight: 1,
      ccuSaveLimit: 300,
      noFeeHeight: 0,
    });
  });

  for (const [change, message] of [
    [{ receivingChainID: undefined }, /receivingChainID/],
    [{ encryptedPrivateKey: undefined }, /encryptedPrivateKey/],
    [{ maxCCUSize: 0 }, /maxCCUSize/],
    [{ maxCCUSize: 10241 }, /maxCCUSize/],
    [{ ccuFee: '-1' }, /ccuFee/],
    [{ ccuFee: 5 }, /ccuFee/],
    [{ ccuSaveLimit: -2 }, /ccuSaveLimit/],
    [{ registrationHeight: 0 }, /registrationHeight/],
    [{ ccuFrequency: 1.5 }, /ccuFrequency/],
    [{ isSaveCCU: 'yes' }, /isSaveCCU/],
    [{ receivingChainID: '0400' }, /8 hex characters/],
    [{ receivingChainID: '01000000' }, /Receiving Chain ID network does not match the sending chain network/],
    [{ receivingChainWsURL: undefined }, /receivingChainWsURL or receivingChainIPCPath/],
  ] as const) {
    it(`refuses ${JSON.stringify(change)}`, () => {
      const config = { ...base, ...change } as Record<string, unknown>;
      for (const k of Object.keys(config)) if (config[k] === undefined) delete config[k];
      assert.throws(() => chainConnectorConfig(config, OWN_CHAIN_ID), message);
    });
  }
});

describe('the relayer key (encryptedPrivateKey)', () => {
  it("parses Klayr's stringified encrypted message as @klayr/cryptography does, and decrypts to the key", async () => {
    const text = await encryptedRelayerKey();
    assert.deepEqual(parseEncryptedMessage(text), klayrCrypto.encrypt.parseEncryptedMessage(text));
    assert.deepEqual(await decryptRelayerKey(text, PASSWORD), relayer.privateKey);
  });

  it('refuses a message with a repeated key, another kdf or cipher, and a plain text that is not a 64-byte key in hex', async () => {
    const text = await encryptedRelayerKey();
    assert.throws(() => parseEncryptedMessage(`${text}&mac=00`), /only one value per key/);
    assert.throws(
      () => parseEncryptedMessage(text.replace('kdf=argon2id', 'kdf=scrypt')),
      /KDF must be one of argon2id,PBKDF2/,
    );
    assert.throws(
      () => parseEncryptedMessage(text.replace('cipher=aes-128-gcm', 'cipher=aes-256-cbc')),
      /Cipher must be one of aes-128-gcm/,
    );
    const notAKey = klayrCrypto.encrypt.stringifyEncryptedMessage(
      await klayrCrypto.encrypt.encryptMessageWithPassword('hello', PASSWORD, {
        kdfparams: { memorySize: 1024, iterations: 1, parallelism: 1 },
      }),
    );
    await assert.rejects(decryptRelayerKey(notAKey, PASSWORD), /not an ed25519 private key/);
  });
});

/** A stand-in receiving chain: answers the methods the plugin calls, records posted transactions. */
class ReceivingChain implements RemoteChainClient {
  posted: string[] = [];
  included = new Set<string>();
  calls: string[] = [];
  height = 100;
  syncing = false;
  registered = true;
  lastCertificate = { height: 10, timestamp: 0, stateRoot: '', validatorsHash: '' };
  inboxSize = 4;
  nonce = '7';
  hasAccount = true;

  async invoke(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    this.calls.push(method);
    switch (method) {
      case 'system_getNodeInfo':
        return { height: this.height, syncing: this.syncing };
      case 'interoperability_getChainAccount':
        if (!this.registered)
          throw Object.assign(new Error('Chain account for chain 04000001 does not exist.'), { code: -32600 });
        return { lastCertificate: this.lastCertificate, name: 'side', status: 1 };
      case 'interoperability_getChannel':
        return { inbox: { size: this.inboxSize } };
      case 'auth_getAuthAccount':
        assert.equal(params.address, addressToKlayr32(addressFromPublicKey(relayer.publicKey)));
        return { nonce: this.nonce };
      case 'token_hasUserAccount':
        assert.equal(params.tokenID, '0400000000000000');
        return { exists: this.hasAccount };
      case 'token_getInitializationFees':
        return { userAccount: '5000000', escrowAccount: '5000000' };
      case 'txpool_postTransaction':
        this.posted.push(params.transaction as string);
        return {
          transactionId: transactionID(decodeTransaction(Buffer.from(params.transaction as string, 'hex'))).toString(
            'hex',
          ),
        };
      case 'chain_getTransactionByID':
        if (!this.included.has(params.id as string)) throw Object.assign(new Error('not found'), { code: -32600 });
        return {};
      default:
        throw new Error(`unexpected ${method}`);
    }
  }

  async close(): Promise<void> {}
}

describe('chainConnector plugin', () => {
  const rng = new Rng(71);
  const dataPath = tempDataPath();
  const state = openState(dataPath);
  const stateRoots = new Map<number, Buffer>();
  for (let height = 1; height <= 20; height++) {
    const overlay = state.newOverlay();
    overlay.set(outboxRootStoreKey(RECEIVING_CHAIN_ID), rng.bytes(34));
    stateRoots.set(height, state.commit(state.prepare(overlay), height));
  }
  // the sending chain's blocks, as the plugin would have recorded them (replayed into the plugin below)
  const source = buildChain(rng, { tip: 20, switchHeight: 16, ccmHeights: [11, 12, 14, 17], stateRoots });
  const builder = createLocalCCUBuilder();
  let receiving: ReceivingChain;
  let plugin: ChainConnectorPlugin;
  let registry: EndpointRegistry;
  let encryptedPrivateKey: string;
  /** Whether the receiving chain is registered on this chain (its interoperability_getChainAccount answers). */
  let receivingRegisteredHere = true;
  const call = async (method: string, params: Record<string, unknown> = {}) => {
    const endpoint = registry.get(`chainConnector_${method}`)!;
    const issues = endpoint.validate(params);
    if (issues.length > 0) throw new Error(issues.map((i) => `${i.dataPath} ${i.message}`).join('; '));
    return endpoint.handler({ params, transport: 'ipc' });
  };
  const chainView = (): OwnChainView => ({
    chainID: OWN_CHAIN_ID,
    dataPath,
    syncing: () => false,
    bftHeights: () => ({ maxHeightPrevoted: 20, maxHeightPrecommitted: 19, maxHeightCertified: 18 }),
    activeValidatorsAt: (height) => (height < 16 ? source.setA : source.setB),
    invoke: async (method, params) => {
      if (method === 'interoperability_getChainAccount') {
        assert.deepEqual(params, { chainID: '04000000' });
        if (!receivingRegisteredHere) throw new Error('Chain account for chain 04000000 does not exist.');
        return {};
      }
      assert.equal(method, 'interoperability_getChannel');
      return { outbox: { size: 4 + source.ccms.length } };
    },
    ccuBuilder: builder,
  });
  const startPlugin = async (settings: Record<string, unknown> = {}) => {
    plugin = new ChainConnectorPlugin();
    registry = new EndpointRegistry();
    receiving = new ReceivingChain();
    receiving.lastCertificate = {
      height: 10,
      timestamp: source.headers.get(10)!.timestamp,
      stateRoot: source.headers.get(10)!.stateRoot.toString('hex'),
      validatorsHash: source.setA.validatorsHash.toString('hex'),
    };
    const context: PluginContext = {
      config: {
        receivingChainID: '04000000',
        receivingChainWsURL: 'ws://127.0.0.1:9/rpc-ws',
        encryptedPrivateKey,
        ...settings,
      },
      dataPath: tempDir(),
      logger: silent,
      chain: chainView(),
      registerEndpoints: (endpoints) => registry.registerNamespace('chainConnector', endpoints),
      connect: async () => receiving,
    };
    await plugin.start(context);
    for (let height = 1; height <= 20; height++) {
      const header = source.headers.get(height)!;
      plugin.store!.saveBlock({
        header,
        ccms: source.store.ccmsBetween(height, height, 'ascending'),
        validatorsData: { ...(height < 16 ? source.setA : source.setB), height },
      });
    }
  };

  before(async () => {
    encryptedPrivateKey = await encryptedRelayerKey();
  });
  after(async () => {
    await plugin.stop();
    await builder.close();
    await source.store.close();
  });

  describe('endpoints', () => {
    before(() => startPlugin());
    after(() => plugin.stop());

    it('registers the seven chainConnector methods, reachable where rpc.allowedMethods lists the namespace or "*" (Klayr Core)', () => {
      assert.deepEqual(
        registry.list().map((e) => e.name),
        [
          'chainConnector_authorize',
          'chainConnector_getAggregateCommits',
          'chainConnector_getAllValidatorsData',
          'chainConnector_getBlockHeaders',
          'chainConnector_getCrossChainMessages',
          'chainConnector_getLastSentCCM',
          'chainConnector_getSentCCUs',
        ],
      );
      assert.equal(createAccessCheck(['system', 'generator'])('chainConnector', 'getSentCCUs'), false);
      assert.equal(createAccessCheck([])('chainConnector', 'authorize'), false);
      assert.equal(createAccessCheck(['chainConnector'])('chainConnector', 'authorize'), true);
      assert.equal(createAccessCheck(['chainConnector_getSentCCUs'])('chainConnector', 'authorize'), false);
      assert.equal(createAccessCheck(['*'])('chainConnector', 'authorize'), true);
    });

    it('getBlockHeaders: headers in the range, highest first, as Klayr writes them (with id)', async () => {
      const headers = (await call('getBlockHeaders', { from: 3, to: 5 })) as {
        height: number;
        id: string;
        generatorAddress: string;
        aggregateCommit: { height: number };
      }[];
      assert.deepEqual(
        headers.map((h) => h.height),
        [5, 4, 3],
      );
      assert.equal(headers[0]!.id.length, 64);
      assert.deepEqual(Object.keys(headers[0]!).sort(), [
        'aggregateCommit',
        'assetRoot',
        'eventRoot',
        'generatorAddress',
        'height',
        'id',
        'impliesMaxPrevotes',
        'maxHeightGenerated',
        'maxHeightPrevoted',
        'previousBlockID',
        'signature',
        'stateRoot',
        'timestamp',
        'transactionRoot',
        'validatorsHash',
        'version',
      ]);
    });

    it('getAggregateCommits: by certified height, highest first', async () => {
      const commits = (await call('getAggregateCommits', { from: 1, to: 4 })) as {
        height: number;
        aggregationBits: string;
        certificateSignature: string;
      }[];
      assert.deepEqual(
        commits.map((c) => c.height),
        [4, 3, 2, 1],
      );
      assert.equal(commits[0]!.certificateSignature.length, 192);
    });

    it('getCrossChainMessages: CCM records with height, highest first', async () => {
      const ccms = (await call('getCrossChainMessages', { from: 0, to: 20 })) as Record<string, unknown>[];
      assert.equal(ccms.length, source.ccms.length);
      assert.deepEqual(Object.keys(ccms[0]!), [
        'module',
        'crossChainCommand',
        'nonce',
        'fee',
        'sendingChainID',
        'receivingChainID',
        'params',
        'status',
        'height',
      ]);
      assert.equal(ccms[0]!.height, 17);
      assert.equal(typeof ccms[0]!.nonce, 'string');
    });

    it('ranges: from above to, wider than the store keeps, or below what was pruned are refused with a clear error', async () => {
      await assert.rejects(call('getBlockHeaders', { from: 5, to: 3 }), /from \(5\) is above to \(3\)/);
      await assert.rejects(
        call('getAggregateCommits', { from: 0, to: KEEP_HEIGHTS }),
        new RegExp(
          `spans ${KEEP_HEIGHTS + 1} heights; the chain connector keeps aggregate commits of at most ${KEEP_HEIGHTS} heights`,
        ),
      );
      await assert.rejects(call('getCrossChainMessages', { from: -1, to: 3 }), /from/);
      await assert.rejects(call('getBlockHeaders', { from: 1 }), /to/);
      plugin.store!.prune({ headersFrom: 6, ccmsFrom: 0, keep: () => false });
      await assert.rejects(call('getBlockHeaders', { from: 2, to: 9 }), /block headers below height 6 were pruned/);
      assert.equal(((await call('getBlockHeaders', { from: 6, to: 9 })) as unknown[]).length, 4);
    });

    it('getLastSentCCM: "No CCM was sent so far." before the first, then the CCM record with outboxSize', async () => {
      await assert.rejects(call('getLastSentCCM'), { message: 'No CCM was sent so far.' });
      plugin.store!.setLastSentCCM({ ...source.ccms[0]!, outboxSize: 9 });
      const last = (await call('getLastSentCCM')) as Record<string, unknown>;
      assert.equal(last.outboxSize, 9);
      assert.equal(last.height, source.ccms[0]!.height);
      assert.equal(last.sendingChainID, '04000001');
    });

    it('getAllValidatorsData: every validators set by hash, Klayr JSON', async () => {
      const all = (await call('getAllValidatorsData')) as {
        validatorsHash: string;
        certificateThreshold: string;
        validators: { address: string; bftWeight: string; blsKey: string }[];
        height: number;
      }[];
      assert.deepEqual(
        all.map((d) => d.validatorsHash).sort(),
        [source.setA.validatorsHash.toString('hex'), source.setB.validatorsHash.toString('hex')].sort(),
      );
      assert.deepEqual(Object.keys(all[0]!), ['certificateThreshold', 'validators', 'validatorsHash', 'height']);
      assert.equal(all[0]!.validators[0]!.address, '');
    });

    it('getSentCCUs: {list, total}, empty before any CCU', async () => {
      assert.deepEqual(await call('getSentCCUs'), { list: [], total: 0 });
    });

    it('params are checked strictly before any handler runs: unknown properties, heights beyond uint32, wrong types', async () => {
      await assert.rejects(call('getSentCCUs', { extra: 1 }), /extra|additional/);
      await assert.rejects(call('getLastSentCCM', { height: 1 }), /height|additional/);
      await assert.rejects(call('getBlockHeaders', { from: 0, to: 2 ** 32 }), /to/);
      await assert.rejects(call('getAggregateCommits', { from: '1', to: 3 }), /from/);
      await assert.rejects(call('getCrossChainMessages', { from: 1.5, to: 3 }), /from/);
      await assert.rejects(call('authorize', { password: PASSWORD, enable: true, extra: 1 }), /extra|additional/);
      await assert.rejects(call('authorize', { password: '', enable: true }), /password/);
    });

    it('authorize: a wrong password is an error and enables nothing; the right one enables and disables', async () => {
      await assert.rejects(
        call('authorize', { password: 'wrong', enable: true }),
        /Wrong password|MAC mismatch|authentication failed/,
      );
      await assert.rejects(call('authorize', { password: PASSWORD }), /enable/);
      await assert.rejects(call('authorize', { password: PASSWORD, enable: 'yes' }), /enable/);
      assert.deepEqual(await call('authorize', { password: PASSWORD, enable: true }), {
        result: 'Successfully enabled the chain connector plugin.',
      });
      await assert.rejects(call('authorize', { password: 'wrong', enable: false }), /Wrong password|MAC mismatch/);
      assert.deepEqual(await call('authorize', { password: PASSWORD, enable: false }), {
        result: 'Successfully disabled the chain connector plugin.',
      });
    });
  });

  describe('sending CCUs', () => {
    before(() => startPlugin());
    after(() => plugin.stop());

    it('without an authorized key, a due CCU is an error: "There is no key enabled to submit CCU."', async () => {
      await assert.rejects(plugin.sender!.afterBlock(20, receiving), {
        message: 'There is no key enabled to submit CCU.',
      });
      assert.deepEqual(receiving.posted, []);
    });

    it('sends the CCU for the next certificate: signed for the receiving chain with the relayer key, nonce from auth, min fee', async () => {
      await call('authorize', { password: PASSWORD, enable: true });
      const id = await plugin.sender!.afterBlock(20, receiving);
      assert.ok(id !== undefined);
      assert.equal(receiving.posted.length, 1);
      const tx = decodeTransaction(Buffer.from(receiving.posted[0]!, 'hex'));
      assert.deepEqual(transactionID(tx), id);
      assert.equal(tx.module, 'interoperability');
      assert.equal(tx.command, 'submitMainchainCrossChainUpdate');
      assert.equal(tx.nonce, 7n);
      assert.deepEqual(tx.senderPublicKey, relayer.publicKey);
      verifyTransactionSignatures(tx, RECEIVING_CHAIN_ID);
      const { fee: _fee, signatures: _s, ...unsigned } = tx;
      assert.equal(tx.fee, computeMinFee(unsigned));
      const sent = (await call('getSentCCUs')) as {
        list: { id: string; params: { certificate: { height: number }; sendingChainID: string } }[];
        total: number;
      };
      assert.equal(sent.total, 1);
      assert.equal(sent.list[0]!.id, id.toString('hex'));
      assert.equal(sent.list[0]!.params.certificate.height, 16);
      assert.equal(sent.list[0]!.params.sendingChainID, '04000001');
    });

    it('sends nothing while that CCU is pending on the receiving chain', async () => {
      assert.equal(await plugin.sender!.afterBlock(20, receiving), undefined);
      assert.equal(receiving.posted.length, 1);
    });

    it('once the receiving chain includes it, its last CCM becomes the last sent one', async () => {
      receiving.included.add(plugin.sender!.pendingCCU!.toString('hex'));
      await assert.rejects(call('getLastSentCCM'), /No CCM was sent so far/);
      receiving.lastCertificate = {
        ...receiving.lastCertificate,
        height: 16,
        stateRoot: source.headers.get(16)!.stateRoot.toString('hex'),
        validatorsHash: source.setB.validatorsHash.toString('hex'),
      };
      receiving.inboxSize += 5;
      await plugin.sender!.afterBlock(20, receiving);
      assert.equal(plugin.sender!.pendingCCU !== undefined, true);
      const last = (await call('getLastSentCCM')) as { height: number; outboxSize: number };
      assert.equal(last.outboxSize, 4 + source.ccms.length);
      assert.ok(last.height <= 16);
    });

    it('ccuFrequency: no attempt before that many blocks since the last certificate', async () => {
      await plugin.stop();
      await startPlugin({ ccuFrequency: 50 });
      await call('authorize', { password: PASSWORD, enable: true });
      assert.equal(await plugin.sender!.afterBlock(20, receiving), undefined);
      assert.deepEqual(
        receiving.calls.filter((c) => c === 'txpool_postTransaction' || c === 'interoperability_getChannel'),
        [],
      );
    });

    it('nothing while the receiving chain syncs or has no account of this chain', async () => {
      await plugin.stop();
      await startPlugin();
      await call('authorize', { password: PASSWORD, enable: true });
      receiving.syncing = true;
      assert.equal(await plugin.sender!.afterBlock(20, receiving), undefined);
      receiving.syncing = false;
      receiving.registered = false;
      assert.equal(await plugin.sender!.afterBlock(20, receiving), undefined);
      assert.deepEqual(receiving.posted, []);
    });

    it('nothing while the receiving chain is not registered on this chain; asked again on the next block', async () => {
      await plugin.stop();
      await startPlugin();
      await call('authorize', { password: PASSWORD, enable: true });
      receivingRegisteredHere = false;
      assert.equal(await plugin.sender!.afterBlock(20, receiving), undefined);
      assert.deepEqual(receiving.posted, []);
      receivingRegisteredHere = true;
      assert.ok((await plugin.sender!.afterBlock(20, receiving)) !== undefined);
      assert.equal(receiving.posted.length, 1);
    });

    it('isSaveCCU: the CCU is signed and saved, not posted; ccuFee and the account initialization fee of a new relayer count', async () => {
      await plugin.stop();
      await startPlugin({ isSaveCCU: true, ccuFee: '900000000' });
      await call('authorize', { password: PASSWORD, enable: true });
      receiving.hasAccount = false;
      const id = await plugin.sender!.afterBlock(20, receiving);
      assert.ok(id !== undefined);
      assert.deepEqual(receiving.posted, []);
      const sent = (await call('getSentCCUs')) as { list: { id: string; fee: string }[]; total: number };
      assert.equal(sent.list[0]!.id, id.toString('hex'));
      assert.equal(sent.list[0]!.fee, (900000000n + 5000000n).toString());
    });

    it('noFeeHeight: no fee while the receiving chain is at or below it', async () => {
      await plugin.stop();
      await startPlugin({ noFeeHeight: 100 });
      await call('authorize', { password: PASSWORD, enable: true });
      await plugin.sender!.afterBlock(20, receiving);
      assert.equal(decodeTransaction(Buffer.from(receiving.posted[0]!, 'hex')).fee, 0n);
    });
  });
});

describe('chainConnector plugin start', () => {
  it('refuses a bad config before opening anything, and closes its store when its endpoints cannot be registered', async () => {
    const dataPath = tempDir();
    const context = (registerEndpoints: PluginContext['registerEndpoints'], config: unknown): PluginContext => ({
      config,
      dataPath,
      logger: silent,
      chain: { chainID: OWN_CHAIN_ID } as OwnChainView,
      registerEndpoints,
      connect: async () => ({}) as RemoteChainClient,
    });
    await assert.rejects(
      new ChainConnectorPlugin().start(context(() => undefined, { receivingChainID: '04000000' })),
      /encryptedPrivateKey/,
    );
    const settings = {
      receivingChainID: '04000000',
      encryptedPrivateKey: 'x',
      receivingChainWsURL: 'ws://127.0.0.1:9',
    };
    const plugin = new ChainConnectorPlugin();
    await assert.rejects(
      plugin.start(
        context(() => {
          throw new Error('Endpoint chainConnector_getSentCCUs is already registered.');
        }, settings),
      ),
      /already registered/,
    );
    assert.equal(plugin.store, undefined);
    // the environment was closed: another plugin opens it
    const again = new ChainConnectorPlugin();
    await again.start(context(() => undefined, settings));
    await again.stop();
  });
});

describe('plugin host', () => {
  const events: string[] = [];
  const recorder = (name: string, failAt?: number): Plugin => ({
    name,
    directory: name,
    start: async (context) => {
      events.push(`${name} start ${context.dataPath.endsWith(`/plugins/${name}`)}`);
      context.registerEndpoints({ ping: { handler: () => 'pong' } });
    },
    blockCommitted: async (block: CommittedBlock) => {
      await new Promise((resolve) => setTimeout(resolve, failAt === undefined ? 5 - (block.header.height % 3) : 0));
      if (block.header.height === failAt) throw new Error('boom');
      events.push(`${name} block ${block.header.height}`);
    },
    blockDeleted: async (header) => {
      events.push(`${name} deleted ${header.height}`);
    },
    stop: async () => {
      events.push(`${name} stop`);
    },
  });

  it('hands every plugin each committed and deleted block in order, logs a failure without stopping, registers endpoints under its namespace', async () => {
    const registered: string[] = [];
    const errors: string[] = [];
    const logger = {
      ...silent,
      error: (obj: object | string) => errors.push(JSON.stringify(obj)),
      child: () => silent,
    };
    const host = new PluginHost({
      dataPath: '/data',
      chain: {} as OwnChainView,
      logger,
      registerEndpoints: (ns, eps) => registered.push(...Object.keys(eps).map((m) => `${ns}_${m}`)),
      connect: async () => ({}) as RemoteChainClient,
      configOf: () => ({}),
    });
    await host.start(recorder('first'));
    await host.start(recorder('second', 2));
    const header = (height: number) => ({ height }) as CommittedBlock['header'];
    for (const height of [1, 2, 3]) host.blockCommitted({ header: header(height), events: [], assets: [] });
    host.blockDeleted(header(3));
    await host.stop();
    assert.deepEqual(registered, ['first_ping', 'second_ping']);
    assert.deepEqual(events.slice(0, 2), ['first start true', 'second start true']);
    assert.deepEqual(events.slice(-2), ['second stop', 'first stop']);
    assert.deepEqual(
      events.filter((e) => e.startsWith('first ') && !e.includes('start') && !e.includes('stop')),
      ['first block 1', 'first block 2', 'first block 3', 'first deleted 3'],
    );
    assert.deepEqual(
      events.filter((e) => e.startsWith('second ') && !e.includes('start') && !e.includes('stop')),
      ['second block 1', 'second block 3', 'second deleted 3'],
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /"plugin":"second","height":2/);
  });
});

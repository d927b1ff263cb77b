import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CCMessage } from '../../src/engine/state_machine/cross_chain.js';
import type { Command } from '../../src/engine/state_machine/module.js';
import { StateMachinePanic } from '../../src/engine/state_machine/panic.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { compile } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { registrationCCMParamsSchema } from '../../src/lib/interop/ccm_params.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import { outboxRootStateTreeKey } from '../../src/lib/interop/store_keys.js';
import { appendToPath, EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { LIVENESS_LIMIT } from '../../src/modules/interoperability/base/constants.js';
import {
  chainAccounts,
  channels,
  getOwnChainAccount,
  terminatedStates,
} from '../../src/modules/interoperability/base/state.js';
import { interoperabilityEventSchemas } from '../../src/modules/interoperability/events.js';
import { outboxRootSchema } from '../../src/modules/interoperability/stores.js';
import type { Fixture, TestValidator } from '../helpers/interop_fixture.js';
import {
  blsValidators,
  commandCtx,
  emptyCCU,
  eventList,
  HEADER_TIMESTAMP,
  KLY,
  MAINCHAIN_ID,
  mainchainFixture,
  registerPartner,
  SIDECHAIN_ID,
  sidechainFixture,
  signedCertificate,
} from '../helpers/interop_fixture.js';

const ccmCodec = compile<CCMessage>(ccmSchema);
const validators = blsValidators(4, 11);
const THRESHOLD = 27n;
const hash32 = (n: number) => Buffer.alloc(32, n);

type AnyFixture = ReturnType<typeof mainchainFixture> | ReturnType<typeof sidechainFixture>;
const ccuCommand = (f: AnyFixture) =>
  f.module.commands.find((c) => c.name.endsWith('CrossChainUpdate')) as unknown as Command<CCUParams>;
const run = (f: AnyFixture, params: CCUParams) => {
  const command = ccuCommand(f);
  const ctx = commandCtx(f, command.name, params, crossChainUpdateParamsSchema);
  return { verify: () => command.verify!(ctx), execute: () => command.execute(ctx) };
};

const certificate = (
  chainID: Buffer,
  over: { height?: number; timestamp?: number; stateRoot?: Buffer; validatorsHash?: Buffer } = {},
  signers?: TestValidator[],
  set: readonly TestValidator[] = validators,
) =>
  signedCertificate(
    chainID,
    set,
    {
      blockID: hash32(1),
      height: over.height ?? 100,
      timestamp: over.timestamp ?? HEADER_TIMESTAMP - 10,
      stateRoot: over.stateRoot ?? hash32(2),
      validatorsHash:
        over.validatorsHash ??
        computeValidatorsHash(
          set.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight })),
          THRESHOLD,
        ),
    },
    signers ?? [...set],
  );

const ccm = (over: Partial<CCMessage> = {}): CCMessage => ({
  module: 'token',
  crossChainCommand: 'crossChainTransfer',
  nonce: 0n,
  fee: 0n,
  sendingChainID: MAINCHAIN_ID,
  receivingChainID: SIDECHAIN_ID,
  status: 0,
  params: Buffer.alloc(0),
  ...over,
});

/** The partner's outbox root after `ccms`, set as the channel's partnerChainOutboxRoot (what an inbox update without certificate must reach). */
const expectInbox = (f: Fixture<unknown>, partner: Buffer, ccms: readonly Buffer[]) => {
  const box = ccms.reduce((b, c) => appendToPath(b, sha256(c)), {
    appendPath: [] as Buffer[],
    size: 0,
    root: EMPTY_HASH,
  });
  channels.set(f, partner, { ...channels.get(f, partner)!, partnerChainOutboxRoot: box.root });
};
const inboxOf = (ccms: Buffer[]): CCUParams['inboxUpdate'] => ({
  crossChainMessages: ccms,
  messageWitnessHashes: [],
  outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [] },
});

/** A CCU from `sender` carrying `ccms` (the first of its outbox to `receiver`), its outbox root proven in the certificate's state root. */
const provenCCU = (ccms: Buffer[], sender = MAINCHAIN_ID, receiver = SIDECHAIN_ID): CCUParams => {
  const outboxRoot = ccms.reduce((b, c) => appendToPath(b, sha256(c)), {
    appendPath: [] as Buffer[],
    size: 0,
    root: EMPTY_HASH,
  }).root;
  const store = new InMemorySMTStore();
  const smt = new SparseMerkleTree(38, store);
  const key = outboxRootStateTreeKey(receiver);
  const root = store.apply(
    smt.update(EMPTY_HASH, [
      { key, value: sha256(compile(outboxRootSchema).encode({ root: outboxRoot })) },
      { key: Buffer.alloc(38, 0xaa), value: hash32(5) },
    ]),
  );
  const proof = smt.prove(root, [key]);
  return {
    ...emptyCCU(sender, THRESHOLD),
    certificate: certificate(sender, { stateRoot: root }),
    inboxUpdate: {
      crossChainMessages: ccms,
      messageWitnessHashes: [],
      outboxRootWitness: { bitmap: proof.queries[0]!.bitmap, siblingHashes: proof.siblingHashes },
    },
  };
};

describe("cross-chain update verification (Klayr's verifyCommon, its messages)", () => {
  const registered = (status = 1, lastCertificate = {}) => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, status, lastCertificate);
    return f;
  };
  const withCert = (over: Partial<CCUParams> = {}, cert = certificate(SIDECHAIN_ID)): CCUParams => ({
    ...emptyCCU(SIDECHAIN_ID, THRESHOLD),
    certificate: cert,
    ...over,
  });
  const witness = { bitmap: Buffer.from([1]), siblingHashes: [hash32(3)] };

  const cases: [string, () => { f: AnyFixture; p: CCUParams }, string][] = [
    [
      'from its own chain',
      () => ({ f: registered(), p: withCert({ sendingChainID: MAINCHAIN_ID }) }),
      'The sending chain cannot be the same as the receiving chain.',
    ],
    [
      'with neither certificate nor messages',
      () => ({ f: registered(), p: emptyCCU(SIDECHAIN_ID, THRESHOLD) }),
      'A cross-chain update must contain a non-empty certificate and/or a non-empty inbox update.',
    ],
    [
      'from an unregistered chain',
      () => ({ f: mainchainFixture(), p: withCert() }),
      'The sending chain is not registered.',
    ],
    ['from a terminated chain', () => ({ f: registered(2), p: withCert() }), 'The sending chain is not live.'],
    [
      'from an active chain past the liveness limit',
      () => ({ f: registered(1, { timestamp: HEADER_TIMESTAMP - LIVENESS_LIMIT - 1 }), p: withCert() }),
      'The sending chain is not live.',
    ],
    [
      'without certificate from a registered chain',
      () => ({
        f: registered(0),
        p: { ...emptyCCU(SIDECHAIN_ID, THRESHOLD), inboxUpdate: { ...inboxOf([Buffer.from('00', 'hex')]) } },
      }),
      'Cross-chain updates from chains with status 0 must contain a non-empty certificate.',
    ],
    [
      'with a certificate not above the last one',
      () => ({ f: registered(1, { height: 100 }), p: withCert() }),
      'Certificate height is not greater than last certificate height.',
    ],
    [
      'with a certificate not older than the block',
      () => ({ f: registered(), p: withCert({}, certificate(SIDECHAIN_ID, { timestamp: HEADER_TIMESTAMP })) }),
      'Certificate timestamp is not smaller than timestamp of the block including the CCU.',
    ],
    [
      'certifying another validators hash without a validators update',
      () => ({ f: registered(), p: withCert({}, certificate(SIDECHAIN_ID, { validatorsHash: hash32(9) })) }),
      'Certifying an update to the validators hash requires an active validators update.',
    ],
    [
      'with a validators update but no certificate',
      () => ({
        f: registered(),
        p: { ...emptyCCU(SIDECHAIN_ID, THRESHOLD + 1n), inboxUpdate: inboxOf([Buffer.alloc(1)]) },
      }),
      'Certificate must be non-empty if validators have been updated.',
    ],
    [
      'with new keys out of order',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: {
            blsKeysUpdate: [Buffer.alloc(48, 2), Buffer.alloc(48, 1)],
            bftWeightsUpdate: [1n, 1n],
            bftWeightsUpdateBitmap: Buffer.from([3]),
          },
        }),
      }),
      'Keys are not sorted in lexicographic order.',
    ],
    [
      'with a new key already active',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: {
            blsKeysUpdate: [validators[0]!.blsKey],
            bftWeightsUpdate: [1n],
            bftWeightsUpdateBitmap: Buffer.from([1]),
          },
        }),
      }),
      'Keys have duplicated entry.',
    ],
    [
      'with a bitmap of the wrong length',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: {
            blsKeysUpdate: [],
            bftWeightsUpdate: [5n],
            bftWeightsUpdateBitmap: Buffer.from([0, 1]),
          },
        }),
      }),
      'Invalid bftWeightsUpdateBitmap. Expected length 1.',
    ],
    [
      'with more weights than bits set',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: {
            blsKeysUpdate: [],
            bftWeightsUpdate: [5n, 6n],
            bftWeightsUpdateBitmap: Buffer.from([1]),
          },
        }),
      }),
      'The number of 1s in the bitmap is not equal to the number of new BFT weights.',
    ],
    [
      'with a new key without weight',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: {
            blsKeysUpdate: [Buffer.alloc(48, 0xff)],
            bftWeightsUpdate: [5n],
            bftWeightsUpdateBitmap: Buffer.from([1]),
          },
        }),
      }),
      'New validators must have a BFT weight update.',
    ],
    [
      'with a new key of weight 0',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: {
            blsKeysUpdate: [Buffer.alloc(48, 0xff)],
            bftWeightsUpdate: [0n],
            bftWeightsUpdateBitmap: Buffer.from([16]),
          },
        }),
      }),
      'New validators must have a positive BFT weight.',
    ],
    [
      'with a threshold too small',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: { blsKeysUpdate: [], bftWeightsUpdate: [], bftWeightsUpdateBitmap: Buffer.from([0]) },
          certificateThreshold: 13n,
        }),
      }),
      'Certificate threshold is too small.',
    ],
    [
      'with a threshold too large',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: { blsKeysUpdate: [], bftWeightsUpdate: [], bftWeightsUpdateBitmap: Buffer.from([0]) },
          certificateThreshold: 41n,
        }),
      }),
      'Certificate threshold is too large.',
    ],
    [
      'with a threshold change the certificate does not certify',
      () => ({
        f: registered(),
        p: withCert({
          activeValidatorsUpdate: { blsKeysUpdate: [], bftWeightsUpdate: [], bftWeightsUpdateBitmap: Buffer.from([0]) },
          certificateThreshold: 28n,
        }),
      }),
      'ValidatorsHash in certificate and the computed values do not match.',
    ],
    [
      'with sibling hashes but no bitmap in the outbox root witness',
      () => ({
        f: registered(),
        p: withCert({
          inboxUpdate: {
            ...inboxOf([Buffer.alloc(1)]),
            outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [hash32(1)] },
          },
        }),
      }),
      'The bitmap in the outbox root witness must be non-empty if the sibling hashes are non-empty.',
    ],
    [
      'with a bitmap but no sibling hashes',
      () => ({
        f: registered(),
        p: withCert({
          inboxUpdate: {
            ...inboxOf([Buffer.alloc(1)]),
            outboxRootWitness: { bitmap: Buffer.from([1]), siblingHashes: [] },
          },
        }),
      }),
      'The sibling hashes in the outbox root witness must be non-empty if the bitmap is non-empty.',
    ],
    [
      'with messages and a certificate but no witness',
      () => ({ f: registered(), p: withCert({ inboxUpdate: inboxOf([Buffer.alloc(1)]) }) }),
      'The outbox root witness must be non-empty to authenticate the new partnerChainOutboxRoot.',
    ],
    [
      'with a witness but no certificate',
      () => ({
        f: registered(),
        p: {
          ...emptyCCU(SIDECHAIN_ID, THRESHOLD),
          inboxUpdate: { ...inboxOf([Buffer.alloc(1)]), outboxRootWitness: witness },
        },
      }),
      'The outbox root witness can be non-empty only if the certificate is non-empty.',
    ],
    [
      'on the mainchain, the first messages of a registered chain under a certificate older than half the liveness limit',
      () => ({
        f: registered(0),
        p: withCert(
          { inboxUpdate: { ...inboxOf([Buffer.alloc(1)]), outboxRootWitness: witness } },
          certificate(SIDECHAIN_ID, { timestamp: HEADER_TIMESTAMP - LIVENESS_LIMIT / 2 - 1 }),
        ),
      }),
      `The first CCU with a non-empty inbox update cannot contain a certificate older than ${LIVENESS_LIMIT / 2} seconds.`,
    ],
  ];
  for (const [what, setup, message] of cases) {
    it(`refuses a CCU ${what}`, () => {
      const { f, p } = setup();
      assert.throws(() => run(f, p).verify(), { message });
    });
  }

  it('accepts a certificate-only CCU of an active chain, and a validators update the certificate certifies', () => {
    assert.doesNotThrow(() => run(registered(), withCert()).verify());
    const next = [...validators, ...blsValidators(1, 12)].sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));
    const newIndex = next.findIndex((v) => !validators.includes(v));
    const p = withCert(
      {
        activeValidatorsUpdate: {
          blsKeysUpdate: [next[newIndex]!.blsKey],
          bftWeightsUpdate: [10n],
          bftWeightsUpdateBitmap: Buffer.from([1 << newIndex]),
        },
        certificateThreshold: 34n,
      },
      certificate(SIDECHAIN_ID, {
        validatorsHash: computeValidatorsHash(
          next.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight })),
          34n,
        ),
      }),
    );
    assert.doesNotThrow(() => run(registered(), p).verify());
  });

  it('refuses bad params (the schema): a 3-byte sending chain ID', () => {
    assert.throws(() =>
      compile(crossChainUpdateParamsSchema).validate({ ...withCert(), sendingChainID: Buffer.alloc(3) }),
    );
  });
});

describe('cross-chain update execution', () => {
  it('takes the certificate: last certificate updated, chainAccountUpdated logged', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    run(f, { ...emptyCCU(SIDECHAIN_ID, THRESHOLD), certificate: certificate(SIDECHAIN_ID) }).execute();
    const account = chainAccounts.get(f, SIDECHAIN_ID)!;
    assert.deepEqual(
      { height: account.lastCertificate.height, stateRoot: account.lastCertificate.stateRoot },
      { height: 100, stateRoot: hash32(2) },
    );
    assert.deepEqual(
      eventList(f.events).map((e) => [e.name, e.topics]),
      [['chainAccountUpdated', [SIDECHAIN_ID.toString('hex')]]],
    );
  });

  it('refuses a certificate signed by less than the threshold, keeping invalidCertificateSignature', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    assert.throws(
      () =>
        run(f, {
          ...emptyCCU(SIDECHAIN_ID, THRESHOLD),
          certificate: certificate(SIDECHAIN_ID, {}, validators.slice(0, 2)),
        }).execute(),
      { message: 'Certificate is not a valid aggregate signature.' },
    );
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['invalidCertificateSignature'],
    );
  });

  it("activates a registered mainchain on a sidechain with its registration CCM, proven in the certificate's state root", () => {
    const f = sidechainFixture();
    registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, THRESHOLD, 0);
    const registration = ccmCodec.encode(
      ccm({
        module: 'interoperability',
        crossChainCommand: 'registration',
        params: compile(registrationCCMParamsSchema).encode({
          name: 'sidechain_one',
          chainID: SIDECHAIN_ID,
          messageFeeTokenID: KLY,
          minReturnFeePerByte: 1000n,
        }),
      }),
    );
    const outboxRoot = appendToPath({ appendPath: [], size: 0 }, sha256(registration)).root;
    const p = provenCCU([registration]);
    run(f, p).verify();
    run(f, p).execute();
    assert.equal(chainAccounts.get(f, MAINCHAIN_ID)!.status, 1);
    const channel = channels.get(f, MAINCHAIN_ID)!;
    assert.equal(channel.inbox.size, 1);
    assert.deepEqual(channel.partnerChainOutboxRoot, outboxRoot);
    const events = eventList(f.events);
    assert.deepEqual(
      events.map((e) => e.name),
      ['initializeUserAccount', 'chainAccountUpdated', 'ccmProcessed', 'chainAccountUpdated'],
    );
    // the CCM's events carry 0x05 || CCM ID
    assert.deepEqual(events[2]!.topics, [
      `05${sha256(registration).toString('hex')}`,
      MAINCHAIN_ID.toString('hex'),
      SIDECHAIN_ID.toString('hex'),
    ]);
  });

  it('fails a CCU without certificate, as Klayr 0.12.3 does: it decodes the certificate unconditionally before the messages', () => {
    const f = sidechainFixture();
    registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, THRESHOLD, 1);
    const bytes = ccmCodec.encode(ccm());
    expectInbox(f, MAINCHAIN_ID, [bytes]);
    const p = { ...emptyCCU(MAINCHAIN_ID, THRESHOLD), inboxUpdate: inboxOf([bytes]) };
    run(f, p).verify();
    assert.throws(() => run(f, p).execute());
    assert.equal(channels.get(f, MAINCHAIN_ID)!.inbox.size, 0);
  });

  it("refuses messages whose outbox root is not proven in the certificate's state root, keeping nothing (invalidSMTVerification reverts)", () => {
    const f = sidechainFixture();
    registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, THRESHOLD, 1);
    const p = provenCCU([ccmCodec.encode(ccm())]);
    const other = provenCCU([ccmCodec.encode(ccm({ nonce: 1n }))]);
    assert.throws(() => run(f, { ...p, certificate: other.certificate }).execute(), {
      message: 'Invalid inclusion proof for inbox update.',
    });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['invalidSMTVerification'],
    );
  });

  describe('each CCM (a sidechain receiving from the mainchain)', () => {
    const apply = (ccms: Buffer[]) => {
      const f = sidechainFixture();
      registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, THRESHOLD, 1);
      run(f, provenCCU(ccms)).execute();
      return f;
    };
    const processed = (f: Fixture<unknown>) =>
      eventList(f.events)
        .filter((e) => e.name === 'ccmProcessed')
        .map((e) => compile<{ result: number; code: number }>(interoperabilityEventSchemas.ccmProcessed).decode(e.data))
        .map(({ result, code }) => ({ result, code }));

    it('discards a CCM for an unknown module whose fee cannot pay its return (code 2, result discarded)', () => {
      const f = apply([ccmCodec.encode(ccm({ module: 'nft', crossChainCommand: 'transfer' }))]);
      assert.deepEqual(processed(f), [{ result: 3, code: 2 }]);
      assert.equal(channels.get(f, MAINCHAIN_ID)!.outbox.size, 0);
      assert.equal(channels.get(f, MAINCHAIN_ID)!.inbox.size, 1);
    });

    it('bounces a CCM for an unknown module whose fee pays its return: status 2 back to the sender', () => {
      const bytes = ccmCodec.encode(ccm({ module: 'nft', crossChainCommand: 'transfer', fee: 10n ** 9n }));
      const f = apply([bytes]);
      assert.deepEqual(processed(f), [{ result: 2, code: 2 }]);
      assert.equal(channels.get(f, MAINCHAIN_ID)!.outbox.size, 1);
      const sent = eventList(f.events).find((e) => e.name === 'ccmSendSuccess')!;
      const bounced = {
        ...ccm({ module: 'nft', crossChainCommand: 'transfer' }),
        status: 2,
        sendingChainID: SIDECHAIN_ID,
        receivingChainID: MAINCHAIN_ID,
        fee: 0n,
      };
      assert.deepEqual(sent.topics, [
        `05${sha256(bytes).toString('hex')}`,
        SIDECHAIN_ID.toString('hex'),
        MAINCHAIN_ID.toString('hex'),
        sha256(ccmCodec.encode(bounced)).toString('hex'),
      ]);
    });

    it('bounces with code 3 a command the module does not have', () => {
      const f = apply([
        ccmCodec.encode(ccm({ module: 'interoperability', crossChainCommand: 'nothing', fee: 10n ** 9n })),
      ]);
      assert.deepEqual(processed(f), [{ result: 2, code: 3 }]);
    });

    it('terminates the sending chain on a CCM that does not decode (code 5) and stops there', () => {
      const f = apply([Buffer.from('ffff', 'hex'), ccmCodec.encode(ccm())]);
      assert.deepEqual(processed(f), [{ result: 3, code: 5 }]);
      assert.equal(chainAccounts.get(f, MAINCHAIN_ID)!.status, 2);
      assert.equal(terminatedStates.get(f, MAINCHAIN_ID)!.initialized, true);
      assert.equal(channels.get(f, MAINCHAIN_ID)!.inbox.size, 0);
      assert.deepEqual(
        eventList(f.events).map((e) => e.name),
        ['initializeUserAccount', 'ccmSendSuccess', 'chainAccountUpdated', 'terminatedStateCreated', 'ccmProcessed'],
      );
    });

    it('terminates the sending chain on a CCM not for this sidechain (code 7)', () => {
      const f = apply([ccmCodec.encode(ccm({ receivingChainID: Buffer.from('04000002', 'hex') }))]);
      assert.deepEqual(processed(f), [{ result: 3, code: 7 }]);
    });

    it('terminates the sending chain on a CCM with a non-alphanumeric module name (code 6)', () => {
      const f = apply([ccmCodec.encode(ccm({ module: 'to-ken' }))]);
      assert.deepEqual(processed(f), [{ result: 3, code: 6 }]);
    });

    it('terminates the sending chain on a registration CCM from an active chain (its verify fails: code 8)', () => {
      const f = apply([
        ccmCodec.encode(
          ccm({
            module: 'interoperability',
            crossChainCommand: 'registration',
            params: compile(registrationCCMParamsSchema).encode({
              name: 'sidechain_one',
              chainID: SIDECHAIN_ID,
              messageFeeTokenID: KLY,
              minReturnFeePerByte: 1000n,
            }),
          }),
        ),
      ]);
      assert.deepEqual(processed(f), [{ result: 3, code: 8 }]);
      assert.equal(chainAccounts.get(f, MAINCHAIN_ID)!.status, 2);
    });

    it('applies channelTerminated with a non-OK status as a no-op', () => {
      const f = apply([
        ccmCodec.encode(ccm({ module: 'interoperability', crossChainCommand: 'channelTerminated', status: 4 })),
      ]);
      assert.deepEqual(processed(f), [{ result: 0, code: 0 }]);
      assert.equal(terminatedStates.get(f, MAINCHAIN_ID), undefined);
    });

    it("applies channelTerminated: the mainchain's terminated state account", () => {
      const f = apply([ccmCodec.encode(ccm({ module: 'interoperability', crossChainCommand: 'channelTerminated' }))]);
      assert.deepEqual(processed(f), [{ result: 0, code: 0 }]);
      assert.deepEqual(terminatedStates.get(f, MAINCHAIN_ID), {
        stateRoot: EMPTY_HASH,
        mainchainStateRoot: EMPTY_HASH,
        initialized: true,
      });
    });
  });

  it('on the mainchain, a CCM that does not decode fails the CCU: terminating a chain there needs a timestamp Klayr does not give', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    assert.throws(() => run(f, provenCCU([Buffer.from('ffff', 'hex')], SIDECHAIN_ID, MAINCHAIN_ID)).execute(), {
      message: 'Timestamp must be provided in mainchain context.',
    });
  });

  it('on the mainchain, a CCM being applied that terminates its sender panics as Klayr does (the block is refused, not the transaction failed)', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    const registration = ccmCodec.encode(
      ccm({
        module: 'interoperability',
        crossChainCommand: 'registration',
        sendingChainID: SIDECHAIN_ID,
        receivingChainID: MAINCHAIN_ID,
        params: compile(registrationCCMParamsSchema).encode({
          name: 'klayr_mainchain',
          chainID: MAINCHAIN_ID,
          messageFeeTokenID: KLY,
          minReturnFeePerByte: 1000n,
        }),
      }),
    );
    assert.throws(() => run(f, provenCCU([registration], SIDECHAIN_ID, MAINCHAIN_ID)).execute(), StateMachinePanic);
  });

  it('on the mainchain, bounces a CCM for a chain that is only registered: status 1 back to its sender (code 1)', () => {
    const f = mainchainFixture();
    const other = Buffer.from('04000002', 'hex');
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    registerPartner(f, other, 'other', validators, THRESHOLD, 0);
    const forwarded = ccm({ sendingChainID: SIDECHAIN_ID, receivingChainID: other, fee: 10n ** 9n });
    run(f, provenCCU([ccmCodec.encode(forwarded)], SIDECHAIN_ID, MAINCHAIN_ID)).execute();
    assert.equal(channels.get(f, other)!.outbox.size, 0);
    assert.equal(channels.get(f, SIDECHAIN_ID)!.outbox.size, 1);
    const processedEvent = eventList(f.events).find((e) => e.name === 'ccmProcessed')!;
    const { result, code } = compile<{ result: number; code: number }>(
      interoperabilityEventSchemas.ccmProcessed,
    ).decode(processedEvent.data);
    assert.deepEqual({ result, code }, { result: 2, code: 1 });
    const sent = compile<{ ccm: CCMessage }>(interoperabilityEventSchemas.ccmSendSuccess).decode(
      eventList(f.events).find((e) => e.name === 'ccmSendSuccess')!.data,
    ).ccm;
    assert.deepEqual(
      {
        status: sent.status,
        sendingChainID: sent.sendingChainID,
        receivingChainID: sent.receivingChainID,
        fee: sent.fee,
      },
      { status: 1, sendingChainID: other, receivingChainID: SIDECHAIN_ID, fee: 0n },
    );
  });

  it("on the mainchain, refuses a CCM claiming another sending chain than the CCU's (routing, which terminates: the CCU fails there)", () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    assert.throws(
      () =>
        run(
          f,
          provenCCU(
            [ccmCodec.encode(ccm({ sendingChainID: Buffer.from('04000002', 'hex'), receivingChainID: MAINCHAIN_ID }))],
            SIDECHAIN_ID,
            MAINCHAIN_ID,
          ),
        ).execute(),
      {
        message: 'Timestamp must be provided in mainchain context.',
      },
    );
  });

  it('on the mainchain, forwards a CCM for another active sidechain to its outbox (result forwarded)', () => {
    const f = mainchainFixture();
    const other = Buffer.from('04000002', 'hex');
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    registerPartner(f, other, 'other', validators, THRESHOLD, 1, { timestamp: HEADER_TIMESTAMP - 100 });
    const bytes = ccmCodec.encode(ccm({ sendingChainID: SIDECHAIN_ID, receivingChainID: other }));
    run(f, provenCCU([bytes], SIDECHAIN_ID, MAINCHAIN_ID)).execute();
    assert.equal(channels.get(f, other)!.outbox.size, 1);
    assert.equal(channels.get(f, SIDECHAIN_ID)!.inbox.size, 1);
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['initializeUserAccount', 'ccmProcessed', 'chainAccountUpdated'],
    );
    assert.equal(getOwnChainAccount(f).nonce, 1n);
  });
});

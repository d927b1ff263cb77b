import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from '../../src/engine/state_machine/module.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { compile } from '../../src/lib/codec/index.js';
import { createAggSig } from '../../src/lib/crypto/aggregate.js';
import { blsSign } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { tagMessage } from '../../src/lib/crypto/tags.js';
import { registrationCCMParamsSchema, registrationSignatureMessageSchema } from '../../src/lib/interop/ccm_params.js';
import { ccmSchema } from '../../src/lib/interop/schemas.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../src/modules/fee/method.js';
import type {
  MainchainRegParams,
  SidechainRegParams,
} from '../../src/modules/interoperability/base/command_schemas.js';
import {
  mainchainRegParamsSchema,
  sidechainRegParamsSchema,
  terminateSidechainForLivenessParamsSchema,
} from '../../src/modules/interoperability/base/command_schemas.js';
import { EMPTY_HASH, LIVENESS_LIMIT } from '../../src/modules/interoperability/base/constants.js';
import {
  chainAccounts,
  chainValidators,
  channels,
  getOwnChainAccount,
  outboxRoots,
  registeredNames,
  terminatedStates,
} from '../../src/modules/interoperability/base/state.js';
import { hasEscrowAccount } from '../../src/modules/token/escrow.js';
import { validatorsParamsSchema } from '../../src/modules/validators/schemas.js';
import { validatorsStore } from '../../src/modules/validators/stores.js';
import type { Fixture, TestValidator } from '../helpers/interop_fixture.js';
import {
  blsValidators,
  commandCtx,
  eventList,
  HEADER_TIMESTAMP,
  KLY,
  MAINCHAIN_ID,
  mainchainFixture,
  registerPartner,
  SIDECHAIN_ID,
  sidechainFixture,
} from '../helpers/interop_fixture.js';

const commandOf = (module: { commands: readonly Command<never>[] }, name: string) =>
  module.commands.find((c) => c.name === name) as unknown as Command<never>;
const toEntries = (validators: readonly TestValidator[]) =>
  validators.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }));

describe('registerSidechain (mainchain)', () => {
  const validators = blsValidators(4, 1);
  const params = (over: Partial<SidechainRegParams> = {}): SidechainRegParams => ({
    chainID: SIDECHAIN_ID,
    name: 'sidechain_one',
    sidechainValidators: toEntries(validators),
    sidechainCertificateThreshold: 27n,
    ...over,
  });
  const run = (f: Fixture<unknown>, p: SidechainRegParams, fee?: bigint) => {
    const command = commandOf((f as ReturnType<typeof mainchainFixture>).module, 'registerSidechain');
    const ctx = commandCtx(f, 'registerSidechain', p, sidechainRegParamsSchema, fee);
    return { verify: () => command.verify!(ctx as never), execute: () => command.execute(ctx as never), ctx };
  };

  const refusals: [string, (f: Fixture<unknown>) => { p: SidechainRegParams; fee?: bigint }, { message: string }][] = [
    [
      'a name outside [a-z0-9!@$&_.]',
      () => ({ p: params({ name: 'Side Chain' }) }),
      { message: 'Invalid name property. It should contain only characters from the set [a-z0-9!@$&_.].' },
    ],
    [
      'a name already registered',
      (f) => {
        registeredNames.set(f, Buffer.from('sidechain_one'), { chainID: Buffer.from('04000009', 'hex') });
        return { p: params() };
      },
      { message: 'Name already registered.' },
    ],
    [
      'a chain ID already registered',
      (f) => {
        registerPartner(f, SIDECHAIN_ID, 'other', validators, 27n);
        return { p: params() };
      },
      { message: 'Chain ID already registered.' },
    ],
    [
      'a chain ID of another network',
      () => ({ p: params({ chainID: Buffer.from('05000001', 'hex') }) }),
      { message: 'Chain ID does not match the mainchain network.' },
    ],
    [
      "the mainchain's chain ID",
      () => ({ p: params({ chainID: MAINCHAIN_ID }) }),
      { message: 'Chain ID cannot be the mainchain chain ID.' },
    ],
    [
      'validators not ordered by BLS key',
      () => ({ p: params({ sidechainValidators: toEntries([...validators].reverse()) }) }),
      { message: 'Validators blsKeys must be unique and lexicographically ordered' },
    ],
    [
      'a duplicate BLS key',
      () => ({ p: params({ sidechainValidators: toEntries([validators[0]!, validators[0]!]) }) }),
      { message: 'Validators blsKeys must be unique and lexicographically ordered' },
    ],
    [
      'a zero BFT weight',
      () => ({
        p: params({
          sidechainValidators: toEntries(validators).map((v, i) => ({ ...v, bftWeight: i === 1 ? 0n : v.bftWeight })),
        }),
      }),
      { message: 'Validator bft weight must be greater than 0' },
    ],
    [
      'a total BFT weight above uint64',
      () => ({
        p: params({
          sidechainValidators: toEntries(validators).map((v) => ({ ...v, bftWeight: 2n ** 63n })),
          sidechainCertificateThreshold: 2n ** 64n - 1n,
        }),
      }),
      { message: 'Validator bft weight must not exceed 18446744073709551615' },
    ],
    [
      'a threshold below a third of the weight plus one',
      () => ({ p: params({ sidechainCertificateThreshold: 13n }) }),
      { message: 'Certificate threshold below minimum bft weight ' },
    ],
    [
      'a threshold above the total weight',
      () => ({ p: params({ sidechainCertificateThreshold: 41n }) }),
      { message: 'Certificate threshold above maximum bft weight' },
    ],
    [
      'a fee below the registration fee',
      () => ({ p: params(), fee: 999_999_999n }),
      { message: 'Insufficient transaction fee.' },
    ],
  ];
  for (const [what, setup, message] of refusals) {
    it(`refuses ${what}`, () => {
      const f = mainchainFixture();
      const { p, fee } = setup(f);
      assert.throws(() => run(f, p, fee).verify(), message);
    });
  }

  it('accepts the smallest and largest thresholds', () => {
    for (const threshold of [14n, 40n])
      assert.doesNotThrow(() => run(mainchainFixture(), params({ sidechainCertificateThreshold: threshold })).verify());
  });

  it('creates the chain account, channel, validators, outbox root, name and escrow, pays the fee and sends the registration CCM', () => {
    const f = mainchainFixture();
    const { execute } = run(f, params());
    execute();
    const account = {
      name: 'sidechain_one',
      lastCertificate: {
        height: 0,
        timestamp: 0,
        stateRoot: EMPTY_HASH,
        validatorsHash: computeValidatorsHash(toEntries(validators), 27n),
      },
      status: 0,
    };
    assert.deepEqual(chainAccounts.get(f, SIDECHAIN_ID), account);
    assert.deepEqual(chainValidators.get(f, SIDECHAIN_ID), {
      activeValidators: toEntries(validators),
      certificateThreshold: 27n,
    });
    assert.deepEqual(registeredNames.get(f, Buffer.from('sidechain_one')), { chainID: SIDECHAIN_ID });
    assert.ok(hasEscrowAccount(f, SIDECHAIN_ID, KLY));
    const registration = {
      nonce: 1n,
      module: 'interoperability',
      crossChainCommand: 'registration',
      sendingChainID: MAINCHAIN_ID,
      receivingChainID: SIDECHAIN_ID,
      fee: 0n,
      status: 0,
      params: compile(registrationCCMParamsSchema).encode({
        name: 'sidechain_one',
        chainID: SIDECHAIN_ID,
        messageFeeTokenID: KLY,
        minReturnFeePerByte: 1000n,
      }),
    };
    const ccmBytes = compile(ccmSchema).encode(registration);
    const channel = channels.get(f, SIDECHAIN_ID)!;
    assert.equal(channel.outbox.size, 1);
    assert.deepEqual(outboxRoots.get(f, SIDECHAIN_ID), { root: channel.outbox.root });
    assert.equal(getOwnChainAccount(f).nonce, 2n);
    // the registration fee and the escrow account's initialization fee come out of the transaction's fee
    assert.equal(f.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_FEE), 10_000_000_000n - 1_000_000_000n - 5_000_000n);
    const events = eventList(f.events);
    assert.deepEqual(
      events.map((e) => `${e.module}:${e.name}`),
      ['token:initializeEscrowAccount', 'interoperability:chainAccountUpdated', 'interoperability:ccmSendSuccess'],
    );
    assert.deepEqual(events[1]!.topics, [SIDECHAIN_ID.toString('hex')]);
    assert.deepEqual(events[2]!.topics, [
      MAINCHAIN_ID.toString('hex'),
      SIDECHAIN_ID.toString('hex'),
      sha256(ccmBytes).toString('hex'),
    ]);
  });

  it('fails when the transaction fee does not cover the registration fee', () => {
    const f = mainchainFixture();
    const { execute } = run(f, params(), 1_000_000_000n);
    f.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 500n);
    assert.throws(execute, { message: 'Transaction ran out of fee.' });
  });
});

describe('registerMainchain (sidechain)', () => {
  const own = blsValidators(3, 2);
  const mainchain = blsValidators(4, 3);
  const setValidatorsParams = (f: Fixture<unknown>, threshold = 21n) =>
    validatorsStore(f, 'validatorsParams').setWithSchema(
      Buffer.alloc(0),
      {
        preCommitThreshold: threshold,
        certificateThreshold: threshold,
        validators: own.map((v, i) => ({
          address: Buffer.alloc(20, i + 1),
          bftWeight: v.bftWeight,
          generatorKey: Buffer.alloc(32, i),
          blsKey: v.blsKey,
        })),
      },
      validatorsParamsSchema,
    );
  const signed = (p: Omit<MainchainRegParams, 'signature' | 'aggregationBits'>, signers = own): MainchainRegParams => {
    const message = compile(registrationSignatureMessageSchema).encode(p);
    const sigs = signers.map((v) => ({
      publicKey: v.blsKey,
      signature: blsSign(v.sk, sha256(tagMessage('KLY_CRM_', p.ownChainID, message))),
    }));
    return {
      ...p,
      ...createAggSig(
        own.map((v) => v.blsKey),
        sigs,
      ),
    };
  };
  const base = (over: Partial<MainchainRegParams> = {}) =>
    signed({
      ownChainID: SIDECHAIN_ID,
      ownName: 'sidechain_one',
      mainchainValidators: toEntries(mainchain),
      mainchainCertificateThreshold: 27n,
      ...over,
    });
  const fresh = () => {
    const f = sidechainFixture();
    setValidatorsParams(f);
    return f;
  };
  const run = (f: Fixture<unknown>, p: MainchainRegParams) => {
    const command = commandOf((f as ReturnType<typeof sidechainFixture>).module, 'registerMainchain');
    const ctx = commandCtx(f, 'registerMainchain', p, mainchainRegParamsSchema);
    return { verify: () => command.verify!(ctx as never), execute: () => command.execute(ctx as never) };
  };

  const refusals: [string, (f: Fixture<unknown>) => MainchainRegParams, { message: string }][] = [
    [
      'a second registration',
      (f) => {
        registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', mainchain, 27n);
        return base();
      },
      { message: 'Mainchain has already been registered.' },
    ],
    [
      "another chain's ID as its own",
      () => base({ ownChainID: Buffer.from('04000002', 'hex') }),
      { message: 'Invalid ownChainID property.' },
    ],
    [
      'an invalid own name',
      () => base({ ownName: 'Side' }),
      { message: 'Invalid ownName property. It should contain only characters from the set [a-z0-9!@$&_.].' },
    ],
    [
      'unordered mainchain validators',
      () => base({ mainchainValidators: toEntries([...mainchain].reverse()) }),
      { message: 'Validators blsKeys must be unique and lexicographically ordered.' },
    ],
    [
      'a zero weight',
      () =>
        base({
          mainchainValidators: toEntries(mainchain).map((v, i) => ({ ...v, bftWeight: i === 0 ? 0n : v.bftWeight })),
        }),
      { message: 'Validator bft weight must be positive integer.' },
    ],
    [
      'a total weight above uint64',
      () => base({ mainchainValidators: toEntries(mainchain).map((v) => ({ ...v, bftWeight: 2n ** 63n })) }),
      { message: 'Total BFT weight exceeds maximum value.' },
    ],
    [
      'a threshold too small',
      () => base({ mainchainCertificateThreshold: 13n }),
      { message: 'Certificate threshold is too small.' },
    ],
    [
      'a threshold too large',
      () => base({ mainchainCertificateThreshold: 41n }),
      { message: 'Certificate threshold is too large.' },
    ],
  ];
  for (const [what, setup, message] of refusals) {
    it(`refuses ${what}`, () => {
      const f = fresh();
      assert.throws(() => run(f, setup(f)).verify(), message);
    });
  }

  it('registers the mainchain, signed by its own validators, and sends the registration CCM with nonce 0', () => {
    const f = fresh();
    const p = base();
    run(f, p).verify();
    run(f, p).execute();
    assert.equal(chainAccounts.get(f, MAINCHAIN_ID)!.name, 'klayr_mainchain');
    assert.equal(chainAccounts.get(f, MAINCHAIN_ID)!.status, 0);
    assert.deepEqual(getOwnChainAccount(f), { name: 'sidechain_one', chainID: SIDECHAIN_ID, nonce: 1n });
    assert.equal(channels.get(f, MAINCHAIN_ID)!.outbox.size, 1);
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['chainAccountUpdated', 'ccmSendSuccess'],
    );
  });

  it('refuses a signature below the threshold, with invalidRegistrationSignature kept', () => {
    const f = fresh();
    const p = signed(
      {
        ownChainID: SIDECHAIN_ID,
        ownName: 'sidechain_one',
        mainchainValidators: toEntries(mainchain),
        mainchainCertificateThreshold: 27n,
      },
      own.slice(0, 2),
    );
    assert.throws(() => run(f, p).execute(), { message: 'Invalid signature property.' });
    assert.deepEqual(
      eventList(f.events).map((e) => [e.name, e.topics]),
      [['invalidRegistrationSignature', [SIDECHAIN_ID.toString('hex')]]],
    );
    assert.equal(chainAccounts.get(f, MAINCHAIN_ID), undefined);
    assert.equal(f.events.getEvents().length, 1);
  });

  it('refuses a signature over another message', () => {
    const f = fresh();
    const p = { ...base(), ownName: 'sidechain_two' };
    assert.throws(() => run(f, p).execute(), /Invalid signature property/);
  });
});

describe('terminateSidechainForLiveness (mainchain)', () => {
  const validators = blsValidators(1, 4);
  const run = (f: ReturnType<typeof mainchainFixture>, chainID = SIDECHAIN_ID) => {
    const command = commandOf(f.module, 'terminateSidechainForLiveness');
    const ctx = commandCtx(f, 'terminateSidechainForLiveness', { chainID }, terminateSidechainForLivenessParamsSchema);
    return { verify: () => command.verify!(ctx as never), execute: () => command.execute(ctx as never) };
  };

  it('refuses an unknown chain', () =>
    assert.throws(() => run(mainchainFixture()).verify(), { message: 'Chain account does not exist.' }));

  it('refuses a terminated chain', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, 2);
    assert.throws(() => run(f).verify(), { message: 'Sidechain is already terminated.' });
  });

  it('refuses a live chain: registered, or active within the liveness limit', () => {
    for (const [status, timestamp] of [
      [0, 0],
      [1, HEADER_TIMESTAMP - LIVENESS_LIMIT],
    ] as const) {
      const f = mainchainFixture();
      registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, status, { timestamp });
      assert.throws(() => run(f).verify(), { message: 'Sidechain did not violate the liveness condition.' });
    }
  });

  it('on the mainchain, fails as Klayr does: terminating sends channelTerminated without the timestamp a mainchain send requires', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, 1, { timestamp: HEADER_TIMESTAMP - LIVENESS_LIMIT - 1 });
    run(f).verify();
    assert.throws(() => run(f).execute(), { message: 'Timestamp must be provided in mainchain context.' });
    assert.equal(terminatedStates.get(f, SIDECHAIN_ID), undefined);
  });
});

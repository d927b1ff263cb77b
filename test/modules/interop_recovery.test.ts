import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CCMessage, CrossChainMethod } from '../../src/engine/state_machine/cross_chain.js';
import type { Command, Module } from '../../src/engine/state_machine/module.js';
import { compile } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { ccmSchema } from '../../src/lib/interop/schemas.js';
import { interoperabilityStoreKey } from '../../src/lib/interop/store_keys.js';
import { computeStorePrefix, stateSMTKey } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import type {
  MessageRecoveryParams,
  StateRecoveryParams,
} from '../../src/modules/interoperability/base/command_schemas.js';
import {
  messageRecoveryInitializationParamsSchema,
  messageRecoveryParamsSchema,
  stateRecoveryInitParamsSchema,
  stateRecoveryParamsSchema,
} from '../../src/modules/interoperability/base/command_schemas.js';
import { LIVENESS_LIMIT } from '../../src/modules/interoperability/base/constants.js';
import { channels, terminatedOutboxes, terminatedStates } from '../../src/modules/interoperability/base/state.js';
import { chainAccountSchema, channelDataSchema } from '../../src/modules/interoperability/schemas.js';
import type { Fixture } from '../helpers/interop_fixture.js';
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

const validators = blsValidators(1, 41);
const OTHER = Buffer.from('04000002', 'hex');
const command = (f: { module: { commands: readonly Command<never>[] } }, name: string) =>
  f.module.commands.find((c) => c.name === name) as unknown as Command<unknown>;
const runner = (
  f: Fixture<unknown> & { module: { commands: readonly Command<never>[] } },
  name: string,
  params: unknown,
  schema: Parameters<typeof commandCtx>[3],
) => {
  const c = command(f, name);
  const ctx = commandCtx(f, name, params, schema);
  return { verify: () => c.verify!(ctx as never), execute: () => c.execute(ctx as never) };
};
const box = () => ({ appendPath: [] as Buffer[], size: 0, root: EMPTY_HASH });
const channelBytes = (inboxSize: number) =>
  compile(channelDataSchema).encode({
    inbox: { ...box(), size: inboxSize },
    outbox: box(),
    partnerChainOutboxRoot: EMPTY_HASH,
    messageFeeTokenID: KLY,
    minReturnFeePerByte: 1000n,
  });

/** A state tree holding `entries` (full store keys and values), its root and a proof of `proven`. */
const stateTree = (entries: { key: Buffer; value: Buffer }[], proven: Buffer[]) => {
  const store = new InMemorySMTStore();
  const smt = new SparseMerkleTree(38, store);
  const root = store.apply(
    smt.update(EMPTY_HASH, [
      ...entries.map((e) => ({ key: stateSMTKey(e.key), value: sha256(e.value) })),
      { key: Buffer.alloc(38, 0xee), value: Buffer.alloc(32, 1) },
    ]),
  );
  return {
    root,
    proof: smt.prove(
      root,
      proven.map((k) => stateSMTKey(k)),
    ),
  };
};

describe('initializeMessageRecovery (mainchain)', () => {
  const terminatedSidechain = (stateRoot: Buffer = Buffer.alloc(32, 3)) => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, 2);
    terminatedStates.set(f, SIDECHAIN_ID, { stateRoot, mainchainStateRoot: EMPTY_HASH, initialized: true });
    return f;
  };
  const params = (over = {}) => ({
    chainID: SIDECHAIN_ID,
    channel: channelBytes(0),
    bitmap: Buffer.alloc(0),
    siblingHashes: [],
    ...over,
  });
  const run = (f: ReturnType<typeof mainchainFixture>, p: unknown) =>
    runner(f, 'initializeMessageRecovery', p, messageRecoveryInitializationParamsSchema);

  const cases: [string, () => { f: ReturnType<typeof mainchainFixture>; p: unknown }, string | undefined][] = [
    [
      'a channel that does not decode',
      () => ({ f: terminatedSidechain(), p: params({ channel: Buffer.from('ff', 'hex') }) }),
      undefined,
    ],
    [
      "the mainchain's chain ID",
      () => ({ f: terminatedSidechain(), p: params({ chainID: MAINCHAIN_ID }) }),
      'Chain ID is not valid.',
    ],
    [
      'an unregistered chain',
      () => ({ f: terminatedSidechain(), p: params({ chainID: OTHER }) }),
      'Chain is not registered.',
    ],
    [
      'a chain that is not terminated',
      () => {
        const f = mainchainFixture();
        registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, 1);
        return { f, p: params() };
      },
      'Terminated state account not present.',
    ],
    [
      'a chain whose outbox is already recovering',
      () => {
        const f = terminatedSidechain();
        terminatedOutboxes.set(f, SIDECHAIN_ID, { outboxRoot: EMPTY_HASH, outboxSize: 0, partnerChainInboxSize: 0 });
        return { f, p: params() };
      },
      'Terminated outbox account already exists.',
    ],
  ];
  for (const [what, setup, message] of cases) {
    it(`refuses ${what}`, () => {
      const { f, p } = setup();
      if (message === undefined) assert.throws(() => run(f, p).verify());
      else assert.throws(() => run(f, p).verify(), { message });
    });
  }

  it("opens the terminated outbox account from the sidechain's channel proven in its state root", () => {
    const channel = channelBytes(3);
    const key = Buffer.concat([interoperabilityStoreKey('channelData', Buffer.alloc(0)), MAINCHAIN_ID]);
    const { root, proof } = stateTree([{ key, value: channel }], [key]);
    const f = terminatedSidechain(root);
    const p = params({ channel, bitmap: proof.queries[0]!.bitmap, siblingHashes: proof.siblingHashes });
    run(f, p).verify();
    run(f, p).execute();
    const outbox = channels.get(f, SIDECHAIN_ID)!.outbox;
    assert.deepEqual(terminatedOutboxes.get(f, SIDECHAIN_ID), {
      outboxRoot: outbox.root,
      outboxSize: outbox.size,
      partnerChainInboxSize: 3,
    });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['terminatedOutboxCreated'],
    );
  });

  it('refuses a proof against another state root: invalidSMTVerification', () => {
    const f = terminatedSidechain();
    assert.throws(() => run(f, params()).execute(), {
      message: 'Message recovery initialization proof of inclusion is not valid.',
    });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['invalidSMTVerification'],
    );
  });
});

describe('recoverMessage (mainchain)', () => {
  const ccm = (over: Partial<CCMessage> = {}) =>
    compile<CCMessage>(ccmSchema).encode({
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
  const withOutbox = (outboxSize = 4, partnerChainInboxSize = 1) => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, 2);
    terminatedOutboxes.set(f, SIDECHAIN_ID, { outboxRoot: Buffer.alloc(32, 9), outboxSize, partnerChainInboxSize });
    return f;
  };
  const params = (over: Partial<MessageRecoveryParams> = {}): MessageRecoveryParams => ({
    chainID: SIDECHAIN_ID,
    crossChainMessages: [ccm()],
    idxs: [9],
    siblingHashes: [],
    ...over,
  });
  const run = (f: ReturnType<typeof mainchainFixture>, p: MessageRecoveryParams) =>
    runner(f, 'recoverMessage', p, messageRecoveryParamsSchema);

  const cases: [string, () => { f: ReturnType<typeof mainchainFixture>; p: MessageRecoveryParams }, string][] = [
    [
      'a chain without terminated outbox',
      () => ({ f: mainchainFixture(), p: params() }),
      'Terminated outbox account does not exist.',
    ],
    [
      'no messages',
      () => ({ f: withOutbox(), p: params({ crossChainMessages: [], idxs: [] }) }),
      'No cross-chain messages to recover.',
    ],
    [
      'fewer indices than messages',
      () => ({ f: withOutbox(), p: params({ idxs: [] }) }),
      'Inclusion proof indices and cross-chain messages do not have the same length.',
    ],
    [
      'decreasing indices',
      () => ({ f: withOutbox(), p: params({ crossChainMessages: [ccm(), ccm({ nonce: 1n })], idxs: [10, 9] }) }),
      'Cross-chain message indexes are not strictly increasing.',
    ],
    [
      'index 1',
      () => ({ f: withOutbox(), p: params({ idxs: [1] }) }),
      'Cross-chain message does not have a valid index.',
    ],
    [
      'a message the partner already received',
      () => ({ f: withOutbox(4, 2), p: params({ idxs: [9] }) }),
      'Cross-chain message is not pending.',
    ],
    [
      'a message past the outbox',
      () => ({ f: withOutbox(4, 0), p: params({ idxs: [12] }) }),
      'Cross-chain message was never in the outbox.',
    ],
    [
      'a message with a non-OK status',
      () => ({ f: withOutbox(), p: params({ crossChainMessages: [ccm({ status: 1 })] }) }),
      'Cross-chain message status must be equal to value 0.',
    ],
    [
      'a message to another chain',
      () => ({ f: withOutbox(), p: params({ crossChainMessages: [ccm({ receivingChainID: OTHER })] }) }),
      'Cross-chain message receiving chain ID is not valid.',
    ],
    [
      'a message from a chain that is not live',
      () => ({ f: withOutbox(), p: params({ crossChainMessages: [ccm({ sendingChainID: OTHER })] }) }),
      'Cross-chain message sending chain is not live.',
    ],
  ];
  for (const [what, setup, message] of cases) {
    it(`refuses ${what}`, () => {
      const { f, p } = setup();
      assert.throws(() => run(f, p).verify(), { message });
    });
  }

  it('refuses messages not proven in the terminated outbox root: invalidRMTVerification', () => {
    const f = withOutbox();
    run(f, params()).verify();
    assert.throws(() => run(f, params()).execute(), { message: 'Message recovery proof of inclusion is not valid.' });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['invalidRMTVerification'],
    );
  });
});

describe('recoverState', () => {
  const recovered: Buffer[] = [];
  const recoverable: Module = {
    name: 'token',
    crossChainMethod: {
      recover: (ctx) => {
        if (ctx.storeValue.equals(Buffer.from('bad'))) throw new Error('no');
        recovered.push(ctx.storeKey);
      },
    } satisfies CrossChainMethod,
    metadata: () => ({ commands: [], events: [], stores: [], endpoints: [], assets: [], name: 'token' }),
  };
  const setup = (initialized = true, stateRoot: Buffer = Buffer.alloc(32, 3)) => {
    const f = mainchainFixture();
    f.module.registerInteroperableModule(recoverable);
    f.module.registerInteroperableModule({ name: 'fee', metadata: recoverable.metadata });
    terminatedStates.set(f, SIDECHAIN_ID, { stateRoot, mainchainStateRoot: EMPTY_HASH, initialized });
    return f;
  };
  const entry = (storeKey: Buffer, storeValue = Buffer.from('value')) => ({
    substorePrefix: Buffer.from([0, 0]),
    storeKey,
    storeValue,
    bitmap: Buffer.alloc(0),
  });
  const params = (over: Partial<StateRecoveryParams> = {}): StateRecoveryParams => ({
    chainID: SIDECHAIN_ID,
    module: 'token',
    storeEntries: [entry(Buffer.alloc(28, 1))],
    siblingHashes: [],
    ...over,
  });
  const run = (f: ReturnType<typeof mainchainFixture>, p: StateRecoveryParams) =>
    runner(f, 'recoverState', p, stateRecoveryParamsSchema);

  const cases: [string, () => { f: ReturnType<typeof mainchainFixture>; p: StateRecoveryParams }, string][] = [
    [
      'a chain without terminated state',
      () => ({ f: mainchainFixture(), p: params() }),
      'The terminated state does not exist.',
    ],
    [
      'an uninitialized terminated state',
      () => ({ f: setup(false), p: params() }),
      'The terminated state is not initialized.',
    ],
    [
      'a module that is not interoperable',
      () => ({ f: setup(), p: params({ module: 'pos' }) }),
      'Module is not registered on the chain.',
    ],
    [
      'a module without recover',
      () => ({ f: setup(), p: params({ module: 'fee' }) }),
      "Module is not recoverable, as it doesn't have a recover method.",
    ],
    [
      'the same entry twice',
      () => ({ f: setup(), p: params({ storeEntries: [entry(Buffer.alloc(28, 1)), entry(Buffer.alloc(28, 1))] }) }),
      'Recoverable store keys are not pairwise distinct.',
    ],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses ${what}`, () => {
      const { f, p } = make();
      assert.throws(() => run(f, p).verify(), { message });
    });
  }

  it('hands each proven entry to the module and marks it recovered in the state root', () => {
    const storeKey = Buffer.alloc(28, 1);
    const key = Buffer.concat([computeStorePrefix('token'), Buffer.from([0, 0]), storeKey]);
    const { root, proof } = stateTree([{ key, value: Buffer.from('value') }], [key]);
    const f = setup(true, root);
    const p = params({
      storeEntries: [{ ...entry(storeKey), bitmap: proof.queries[0]!.bitmap }],
      siblingHashes: proof.siblingHashes,
    });
    recovered.length = 0;
    run(f, p).verify();
    run(f, p).execute();
    assert.deepEqual(recovered, [storeKey]);
    // the entry's leaf now holds 32 zero bytes (Klayr's RECOVERED_STORE_VALUE)
    const store = new InMemorySMTStore();
    const expected = store.apply(
      new SparseMerkleTree(38, store).update(EMPTY_HASH, [
        { key: stateSMTKey(key), value: Buffer.alloc(32) },
        { key: Buffer.alloc(38, 0xee), value: Buffer.alloc(32, 1) },
      ]),
    );
    assert.deepEqual(terminatedStates.get(f, SIDECHAIN_ID)!.stateRoot, expected);
  });

  it('refuses entries not proven in the terminated state root: invalidSMTVerification', () => {
    const f = setup();
    assert.throws(() => run(f, params()).execute(), { message: 'State recovery proof of inclusion is not valid.' });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['invalidSMTVerification'],
    );
  });
});

describe('initializeStateRecovery (sidechain)', () => {
  const account = (status: number, timestamp: number) =>
    compile(chainAccountSchema).encode({
      name: 'other',
      lastCertificate: { height: 5, timestamp, stateRoot: Buffer.alloc(32, 8), validatorsHash: Buffer.alloc(32, 2) },
      status,
    });
  const setup = (mainchainCertificateTimestamp = HEADER_TIMESTAMP - 10, mainchainStateRoot?: Buffer) => {
    const f = sidechainFixture();
    registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, 10n, 1, {
      timestamp: mainchainCertificateTimestamp,
      ...(mainchainStateRoot === undefined ? {} : { stateRoot: mainchainStateRoot }),
    });
    return f;
  };
  const params = (over = {}) => ({
    chainID: OTHER,
    sidechainAccount: account(2, 100),
    bitmap: Buffer.alloc(0),
    siblingHashes: [],
    ...over,
  });
  const run = (f: ReturnType<typeof sidechainFixture>, p: unknown) =>
    runner(f, 'initializeStateRecovery', p, stateRecoveryInitParamsSchema);

  const cases: [string, () => { f: ReturnType<typeof sidechainFixture>; p: unknown }, string][] = [
    ['the mainchain', () => ({ f: setup(), p: params({ chainID: MAINCHAIN_ID }) }), 'Chain ID is not valid.'],
    ['its own chain', () => ({ f: setup(), p: params({ chainID: SIDECHAIN_ID }) }), 'Chain ID is not valid.'],
    [
      'a chain already recovered',
      () => {
        const f = setup();
        terminatedStates.set(f, OTHER, {
          stateRoot: Buffer.alloc(32, 1),
          mainchainStateRoot: EMPTY_HASH,
          initialized: true,
        });
        return { f, p: params() };
      },
      'Sidechain is already terminated.',
    ],
    [
      'a registered chain',
      () => ({ f: setup(), p: params({ sidechainAccount: account(0, 100) }) }),
      'Sidechain has status registered.',
    ],
    [
      'an active chain within the liveness limit',
      () => ({ f: setup(), p: params({ sidechainAccount: account(1, HEADER_TIMESTAMP - 10 - LIVENESS_LIMIT) }) }),
      'Sidechain is still active and obeys the liveness requirement.',
    ],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses ${what}`, () => {
      const { f, p } = make();
      assert.throws(() => run(f, p).verify(), { message });
    });
  }

  it("creates the terminated state account from the sidechain account proven in the mainchain's certified state", () => {
    const sidechainAccount = account(2, 100);
    const key = Buffer.concat([interoperabilityStoreKey('chainAccount', Buffer.alloc(0)), OTHER]);
    const { root, proof } = stateTree([{ key, value: sidechainAccount }], [key]);
    const f = setup(HEADER_TIMESTAMP - 10, root);
    const p = params({ sidechainAccount, bitmap: proof.queries[0]!.bitmap, siblingHashes: proof.siblingHashes });
    run(f, p).verify();
    run(f, p).execute();
    assert.deepEqual(terminatedStates.get(f, OTHER), {
      stateRoot: Buffer.alloc(32, 8),
      mainchainStateRoot: EMPTY_HASH,
      initialized: true,
    });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['terminatedStateCreated'],
    );
  });

  it('refuses a proof against another root, naming the mainchain', () => {
    const f = setup();
    assert.throws(() => run(f, params()).execute(), {
      message: 'State recovery initialization proof of inclusion is not valid for mainchainID: 04000000.',
    });
  });
});

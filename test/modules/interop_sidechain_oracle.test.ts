// The sidechain variant's commands against klayr-framework's SidechainInteroperabilityModule
// (wired with its validators, token and fee modules as Application.defaultApplication wires a
// sidechain): the same state entries and events after registerMainchain and after cross-chain
// updates from the mainchain.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import type { CCMessage } from '../../src/engine/state_machine/cross_chain.js';
import { EventQueue } from '../../src/engine/state_machine/event_queue.js';
import type { Command, CommandContext, Module } from '../../src/engine/state_machine/module.js';
import type { Schema } from '../../src/lib/codec/index.js';
import { compile } from '../../src/lib/codec/index.js';
import { createAggSig } from '../../src/lib/crypto/aggregate.js';
import { blsSign } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { tagMessage } from '../../src/lib/crypto/tags.js';
import { registrationCCMParamsSchema, registrationSignatureMessageSchema } from '../../src/lib/interop/ccm_params.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import { interoperabilityStoreKey, outboxRootStateTreeKey } from '../../src/lib/interop/store_keys.js';
import { stateSMTKey } from '../../src/lib/state/keys.js';
import { appendToPath, EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../src/modules/fee/method.js';
import type { MainchainRegParams } from '../../src/modules/interoperability/base/command_schemas.js';
import {
  mainchainRegParamsSchema,
  stateRecoveryInitParamsSchema,
} from '../../src/modules/interoperability/base/command_schemas.js';
import {
  chainAccounts,
  channels,
  setOwnChainAccount,
  terminatedStates,
} from '../../src/modules/interoperability/base/state.js';
import { chainAccountSchema } from '../../src/modules/interoperability/schemas.js';
import { outboxRootSchema } from '../../src/modules/interoperability/stores.js';
import { validatorsParamsSchema } from '../../src/modules/validators/schemas.js';
import { validatorsStore } from '../../src/modules/validators/stores.js';
import '../helpers/interop_oracle_smt.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { devnetFile } from '../helpers/devnet.js';
import {
  blsValidators,
  HEADER_TIMESTAMP,
  KLY,
  MAINCHAIN_ID,
  SENDER,
  SIDECHAIN_ID,
  signedCertificate,
} from '../helpers/interop_fixture.js';
import { MemoryStateReadWriter } from '../helpers/klayr_genesis.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const silent: any = {
  info: () => undefined,
  debug: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
};

const own = blsValidators(3, 71);
const mainchain = blsValidators(4, 72);
const mainchainEntries = mainchain.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }));
const THRESHOLD = 27n;
const OTHER = Buffer.from('04000002', 'hex');
const ccmCodec = compile<CCMessage>(ccmSchema);
/** Klayr's crossChainTransferMessageParams (token module). */
const crossChainTransferParamsSchema: Schema = fw('modules/token/schemas').crossChainTransferMessageParams;

/** klayr-framework's sidechain modules, initialized with the devnet module config under the sidechain's chain ID. */
const klayrSidechain = async () => {
  const config = JSON.parse(readFileSync(devnetFile('config.json'), 'utf8'));
  const validators = new (fw('modules/validators').ValidatorsModule)();
  const token = new (fw('modules/token').TokenModule)();
  const fee = new (fw('modules/fee').FeeModule)();
  const interop = new (fw('modules/interoperability').SidechainInteroperabilityModule)();
  interop.addDependencies(validators.method, token.method);
  fee.addDependencies(token.method, interop.method);
  token.addDependencies(interop.method, fee.method);
  interop.registerInteroperableModule(token);
  interop.registerInteroperableModule(fee);
  const { StateMachine } = fw('state_machine');
  const machine = new StateMachine();
  for (const m of [validators, token, fee, interop]) machine.registerModule(m);
  const genesisConfig = {
    ...fw('schema/application_config_schema').applicationConfigSchema.default.genesis,
    ...config.genesis,
    chainID: SIDECHAIN_ID.toString('hex'),
  };
  await machine.init(silent, genesisConfig, config.modules);
  return interop;
};

/** Both sides on the same starting state; each command runs on both and the results are compared. */
class Sides {
  readonly state = new BlockState(EMPTY_STATE);
  readonly store = (p: Buffer, sp: Buffer) => new SubStore(this.state, p, sp);
  readonly klayrStore = new MemoryStateReadWriter();
  readonly interop: Module & { commands: readonly Command<never>[] };

  private constructor(readonly klayr: any) {
    const config = loadConfig();
    config.genesis.chainID = SIDECHAIN_ID.toString('hex');
    this.interop = applicationModules(config).find((m) => m.name === 'interoperability') as Module & {
      commands: readonly Command<never>[];
    };
  }

  static async create(): Promise<Sides> {
    return new Sides(await klayrSidechain());
  }

  /** Copies Kestrel's state to Klayr's store (the same start). */
  sync(): void {
    this.klayrStore.data.clear();
    for (const c of this.state.overlay.changes())
      if (c.value !== undefined) this.klayrStore.data.set(c.key.toString('hex'), Buffer.from(c.value));
  }

  entries(): Map<string, string> {
    return new Map(
      this.state.overlay
        .changes()
        .filter((c) => c.value !== undefined)
        .map((c) => [c.key.toString('hex'), c.value!.toString('hex')]),
    );
  }

  async run<P>(
    name: string,
    params: P,
    schema: Schema,
    fee = 10_000_000_000n,
  ): Promise<{ ours: string | undefined; theirs: string | undefined }> {
    this.sync();
    const encoded = compile<P>(schema).encode(params);
    const header = { height: 20, timestamp: HEADER_TIMESTAMP };
    // Kestrel
    const events = new EventQueue(20);
    const contextStore = new Map<string, unknown>([[CONTEXT_STORE_KEY_AVAILABLE_FEE, fee]]);
    const command = this.interop.commands.find((c) => c.name === name) as unknown as Command<P>;
    const ctx: CommandContext<P> = {
      header: header as CommandContext<P>['header'],
      chainID: SIDECHAIN_ID,
      state: this.state,
      events,
      contextStore,
      store: this.store,
      asset: () => undefined,
      setNextValidators: () => undefined,
      transaction: {
        module: 'interoperability',
        command: name,
        nonce: 0n,
        fee,
        senderPublicKey: Buffer.alloc(32),
        params: encoded,
        signatures: [],
      },
      transactionID: sha256(encoded),
      senderAddress: SENDER,
      transactionSize: encoded.length,
      params,
    };
    let ours: string | undefined;
    const snapshot = this.state.snapshot();
    try {
      command.verify?.(ctx);
      command.execute(ctx);
    } catch (error) {
      ours = (error as Error).message;
      this.state.restoreSnapshot(snapshot);
    }
    // Klayr
    const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
    const { EventQueue: KlayrEventQueue } = fw('state_machine');
    const prefixed = new PrefixedStateReadWriter(this.klayrStore);
    const klayrEvents = new KlayrEventQueue(20);
    const klayrContextStore = new Map<string, unknown>([['CONTEXT_STORE_KEY_AVAILABLE_FEE', fee]]);
    const getStore = (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp);
    const methodContext = () => ({ getStore, eventQueue: klayrEvents, contextStore: klayrContextStore });
    const klayrCtx = {
      params,
      transaction: { module: 'interoperability', command: name, fee, senderAddress: SENDER, params: encoded },
      header,
      chainID: SIDECHAIN_ID,
      eventQueue: klayrEvents,
      contextStore: klayrContextStore,
      stateStore: prefixed,
      getStore,
      getMethodContext: methodContext,
      logger: silent,
    };
    const theirsCommand = this.klayr.commands.find((c: any) => c.name === name);
    let theirs: string | undefined;
    const saved = new Map(this.klayrStore.data);
    try {
      const verified = await theirsCommand.verify(klayrCtx);
      if (verified.status !== 1) throw verified.error;
      await theirsCommand.execute(klayrCtx);
    } catch (error) {
      theirs = (error as Error).message;
      this.klayrStore.data.clear();
      for (const [k, v] of saved) this.klayrStore.data.set(k, v);
    }
    const klayrEntries = new Map([...this.klayrStore.data].map(([k, v]) => [k, v.toString('hex')]));
    if (ours === undefined && theirs === undefined) {
      assert.deepEqual(this.entries(), klayrEntries, `${name}: state`);
      const mine = events.getEvents().map((e) => ({
        module: e.module,
        name: e.name,
        topics: e.topics.map((t) => t.toString('hex')),
        data: e.data.toString('hex'),
      }));
      const klayrs = klayrEvents
        .getEvents()
        .map((e: any) => e.toObject())
        .map((e: any) => ({
          module: e.module,
          name: e.name,
          topics: e.topics.map((t: Buffer) => t.toString('hex')),
          data: e.data.toString('hex'),
        }));
      assert.deepEqual(mine, klayrs, `${name}: events`);
      assert.ok(mine.length > 0, `${name}: events logged`);
    }
    return { ours, theirs };
  }
}

const registrationParams = (signers = own): MainchainRegParams => {
  const p = {
    ownChainID: SIDECHAIN_ID,
    ownName: 'sidechain_one',
    mainchainValidators: mainchainEntries,
    mainchainCertificateThreshold: THRESHOLD,
  };
  const message = compile(registrationSignatureMessageSchema).encode(p);
  const sigs = signers.map((v) => ({
    publicKey: v.blsKey,
    signature: blsSign(v.sk, sha256(tagMessage('KLY_CRM_', SIDECHAIN_ID, message))),
  }));
  return {
    ...p,
    ...createAggSig(
      own.map((v) => v.blsKey),
      sigs,
    ),
  };
};

const seed = (sides: Sides) => {
  validatorsStore(sides, 'validatorsParams').setWithSchema(
    Buffer.alloc(0),
    {
      preCommitThreshold: 21n,
      certificateThreshold: 21n,
      validators: own.map((v, i) => ({
        address: Buffer.alloc(20, i + 1),
        bftWeight: v.bftWeight,
        generatorKey: Buffer.alloc(32, i),
        blsKey: v.blsKey,
      })),
    },
    validatorsParamsSchema,
  );
};

/** A CCU from the mainchain carrying `ccms` after `received` earlier ones, its outbox root proven in the certificate's state root. */
const ccuFromMainchain = (
  ccms: Buffer[],
  sent: Buffer[],
  height: number,
  extra: { key: Buffer; value: Buffer }[] = [],
): CCUParams => {
  const outboxRoot = [...sent, ...ccms].reduce((b, c) => appendToPath(b, sha256(c)), {
    appendPath: [] as Buffer[],
    size: 0,
    root: EMPTY_HASH,
  }).root;
  const store = new InMemorySMTStore();
  const smt = new SparseMerkleTree(38, store);
  const key = outboxRootStateTreeKey(SIDECHAIN_ID);
  const root = store.apply(
    smt.update(EMPTY_HASH, [
      { key, value: sha256(compile(outboxRootSchema).encode({ root: outboxRoot })) },
      { key: Buffer.alloc(38, 0xbb), value: Buffer.alloc(32, 4) },
      ...extra,
    ]),
  );
  const proof = smt.prove(root, [key]);
  return {
    sendingChainID: MAINCHAIN_ID,
    certificate: signedCertificate(MAINCHAIN_ID, mainchain, {
      blockID: Buffer.alloc(32, height),
      height,
      timestamp: HEADER_TIMESTAMP - 50 + height,
      stateRoot: root,
      validatorsHash: computeValidatorsHash(mainchainEntries, THRESHOLD),
    }),
    activeValidatorsUpdate: { blsKeysUpdate: [], bftWeightsUpdate: [], bftWeightsUpdateBitmap: Buffer.alloc(0) },
    certificateThreshold: THRESHOLD,
    inboxUpdate: {
      crossChainMessages: ccms,
      messageWitnessHashes: [],
      outboxRootWitness: { bitmap: proof.queries[0]!.bitmap, siblingHashes: proof.siblingHashes },
    },
  };
};

const ccm = (over: Partial<CCMessage>): Buffer =>
  ccmCodec.encode({
    module: 'interoperability',
    crossChainCommand: 'registration',
    nonce: 0n,
    fee: 0n,
    sendingChainID: MAINCHAIN_ID,
    receivingChainID: SIDECHAIN_ID,
    status: 0,
    params: Buffer.alloc(0),
    ...over,
  });

/** The mainchain's state tree entry of another sidechain's account (what initializeStateRecovery proves). */
const otherAccount = (status: number) =>
  compile(chainAccountSchema).encode({
    name: 'other',
    lastCertificate: { height: 5, timestamp: 100, stateRoot: Buffer.alloc(32, 8), validatorsHash: Buffer.alloc(32, 2) },
    status,
  });
const otherAccountKey = stateSMTKey(interoperabilityStoreKey('chainAccount', OTHER));

describe("the sidechain interoperability commands against klayr-framework's", () => {
  it('registerMainchain: refusals alike, then the same state and events', async () => {
    const sides = await Sides.create();
    seed(sides);
    const below = await sides.run('registerMainchain', registrationParams(own.slice(0, 1)), mainchainRegParamsSchema);
    assert.equal(below.ours, below.theirs);
    assert.equal(below.ours, 'Invalid signature property.');
    const wrongID = await sides.run(
      'registerMainchain',
      { ...registrationParams(), ownChainID: Buffer.from('04000009', 'hex') },
      mainchainRegParamsSchema,
    );
    assert.equal(wrongID.ours, wrongID.theirs);
    const done = await sides.run('registerMainchain', registrationParams(), mainchainRegParamsSchema);
    assert.deepEqual(done, { ours: undefined, theirs: undefined });
    const again = await sides.run('registerMainchain', registrationParams(), mainchainRegParamsSchema);
    assert.deepEqual(again, {
      ours: 'Mainchain has already been registered.',
      theirs: 'Mainchain has already been registered.',
    });
  });

  it('submitSidechainCrossChainUpdate: activation by the registration CCM, bounces, token transfers (one bounced), then channelTerminated', async () => {
    const sides = await Sides.create();
    seed(sides);
    await sides.run('registerMainchain', registrationParams(), mainchainRegParamsSchema);
    setOwnChainAccount(sides, { name: 'sidechain_one', chainID: SIDECHAIN_ID, nonce: 1n });
    const registration = ccm({
      params: compile(registrationCCMParamsSchema).encode({
        name: 'sidechain_one',
        chainID: SIDECHAIN_ID,
        messageFeeTokenID: KLY,
        minReturnFeePerByte: 1000n,
      }),
    });
    const sent: Buffer[] = [];
    const step = async (ccms: Buffer[], height: number) => {
      const outcome = await sides.run(
        'submitSidechainCrossChainUpdate',
        ccuFromMainchain(ccms, sent, height),
        crossChainUpdateParamsSchema,
      );
      assert.deepEqual(outcome.ours, outcome.theirs, `height ${height}`);
      if (outcome.ours === undefined) sent.push(...ccms);
      return outcome;
    };
    assert.deepEqual(await step([registration], 30), { ours: undefined, theirs: undefined });
    assert.deepEqual(
      await step(
        [
          ccm({ module: 'nft', crossChainCommand: 'transfer', nonce: 1n, fee: 10n ** 9n }),
          ccm({ module: 'interoperability', crossChainCommand: 'nothing', nonce: 2n }),
        ],
        31,
      ),
      { ours: undefined, theirs: undefined },
    );
    const transfer = (nonce: bigint, tokenID: Buffer, fee: bigint) =>
      ccm({
        module: 'token',
        crossChainCommand: 'crossChainTransfer',
        nonce,
        fee,
        params: compile(crossChainTransferParamsSchema).encode({
          tokenID,
          amount: 5000n,
          senderAddress: Buffer.alloc(20, 1),
          recipientAddress: Buffer.alloc(20, 2),
          data: 'hi',
        }),
      });
    assert.deepEqual(
      await step(
        [
          transfer(3n, KLY, 0n),
          transfer(4n, Buffer.from('0400000100000000', 'hex'), 0n),
          transfer(5n, Buffer.from('0400000900000000', 'hex'), 10n ** 8n),
        ],
        32,
      ),
      { ours: undefined, theirs: undefined },
    );
    assert.deepEqual(await step([ccm({ crossChainCommand: 'channelTerminated', nonce: 6n })], 33), {
      ours: undefined,
      theirs: undefined,
    });
    assert.equal(chainAccounts.get(sides, MAINCHAIN_ID)!.status, 2);
    assert.equal(channels.get(sides, MAINCHAIN_ID)!.inbox.size, 7);
    assert.equal(channels.get(sides, MAINCHAIN_ID)!.outbox.size, 3);
  });

  it('submitSidechainCrossChainUpdate: an undecodable CCM terminates the mainchain on both', async () => {
    const sides = await Sides.create();
    seed(sides);
    await sides.run('registerMainchain', registrationParams(), mainchainRegParamsSchema);
    const registration = ccm({
      params: compile(registrationCCMParamsSchema).encode({
        name: 'sidechain_one',
        chainID: SIDECHAIN_ID,
        messageFeeTokenID: KLY,
        minReturnFeePerByte: 1000n,
      }),
    });
    await sides.run(
      'submitSidechainCrossChainUpdate',
      ccuFromMainchain([registration], [], 30),
      crossChainUpdateParamsSchema,
    );
    const outcome = await sides.run(
      'submitSidechainCrossChainUpdate',
      ccuFromMainchain([Buffer.from('ffff', 'hex')], [registration], 31),
      crossChainUpdateParamsSchema,
    );
    assert.deepEqual(outcome, { ours: undefined, theirs: undefined });
    assert.equal(chainAccounts.get(sides, MAINCHAIN_ID)!.status, 2);
    assert.equal(terminatedStates.get(sides, MAINCHAIN_ID)!.initialized, true);
  });
});

describe("initializeStateRecovery against klayr-framework's", () => {
  it("refusals alike, then the terminated state account from the account proven in the mainchain's certified state", async () => {
    const sides = await Sides.create();
    seed(sides);
    await sides.run('registerMainchain', registrationParams(), mainchainRegParamsSchema);
    const registration = ccm({
      params: compile(registrationCCMParamsSchema).encode({
        name: 'sidechain_one',
        chainID: SIDECHAIN_ID,
        messageFeeTokenID: KLY,
        minReturnFeePerByte: 1000n,
      }),
    });
    const account = otherAccount(2);
    const ccu = ccuFromMainchain([registration], [], 30, [{ key: otherAccountKey, value: sha256(account) }]);
    assert.deepEqual(await sides.run('submitSidechainCrossChainUpdate', ccu, crossChainUpdateParamsSchema), {
      ours: undefined,
      theirs: undefined,
    });
    const stateRoot = chainAccounts.get(sides, MAINCHAIN_ID)!.lastCertificate.stateRoot;
    const store = new InMemorySMTStore();
    const rebuilt = new SparseMerkleTree(38, store);
    // the certified tree again, to prove the other sidechain's account in it
    const outboxRoot = appendToPath({ appendPath: [], size: 0 }, sha256(registration)).root;
    const root = store.apply(
      rebuilt.update(EMPTY_HASH, [
        {
          key: outboxRootStateTreeKey(SIDECHAIN_ID),
          value: sha256(compile(outboxRootSchema).encode({ root: outboxRoot })),
        },
        { key: Buffer.alloc(38, 0xbb), value: Buffer.alloc(32, 4) },
        { key: otherAccountKey, value: sha256(account) },
      ]),
    );
    assert.deepEqual(root, stateRoot);
    const proof = rebuilt.prove(root, [otherAccountKey]);
    const params = {
      chainID: OTHER,
      sidechainAccount: account,
      bitmap: proof.queries[0]!.bitmap,
      siblingHashes: proof.siblingHashes,
    };
    for (const bad of [
      { ...params, chainID: MAINCHAIN_ID },
      { ...params, sidechainAccount: otherAccount(0) },
      { ...params, siblingHashes: [] },
    ]) {
      const outcome = await sides.run('initializeStateRecovery', bad, stateRecoveryInitParamsSchema);
      assert.ok(outcome.ours !== undefined);
      assert.equal(outcome.ours, outcome.theirs);
    }
    assert.deepEqual(await sides.run('initializeStateRecovery', params, stateRecoveryInitParamsSchema), {
      ours: undefined,
      theirs: undefined,
    });
    assert.equal(terminatedStates.get(sides, OTHER)!.initialized, true);
  });
});
/* eslint-enable @typescript-eslint/no-explicit-any */

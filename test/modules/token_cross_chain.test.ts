import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import type { CCMessage, InteroperabilityMethod } from '../../src/engine/state_machine/cross_chain.js';
import { compile, compileValidator } from '../../src/lib/codec/index.js';
import { addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { computeSubstorePrefix } from '../../src/lib/state/keys.js';
import { tokenConfig } from '../../src/modules/token/config.js';
import type { CrossChainTransferMessageParams } from '../../src/modules/token/cross_chain/schemas.js';
import { crossChainTransferMessageParamsSchema } from '../../src/modules/token/cross_chain/schemas.js';
import { tokenEndpoints } from '../../src/modules/token/endpoint.js';
import { TokenModule } from '../../src/modules/token/index.js';
import { TokenMethod } from '../../src/modules/token/method.js';
import { escrowStoreSchema, supportedTokensStoreSchema } from '../../src/modules/token/schemas.js';
import type { Operation } from '../helpers/klayr_token_interop.js';
import { klayrTokenModule, runKestrel, runKlayr } from '../helpers/klayr_token_interop.js';
import { Rng } from '../helpers/random.js';
import type { World } from '../helpers/token_world.js';
import {
  AVAILABLE_FEE,
  amountOf,
  hex,
  KLY,
  key,
  MAINCHAIN,
  missingEntry,
  OTHER,
  PARTNER,
  randomWorld,
  userCodec,
} from '../helpers/token_world.js';

const messageCodec = compile<CrossChainTransferMessageParams>(crossChainTransferMessageParamsSchema);
const CCM_PROCESSING = 'CONTEXT_STORE_KEY_CCM_PROCESSING';
const AVAILABLE_CCM_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE';

const ccProcessing = (world: World, rng: Rng): World => ({
  ...world,
  setup: {
    ...world.setup,
    contextStore: [
      [CCM_PROCESSING, true],
      ...(rng.next() < 0.8
        ? [[AVAILABLE_CCM_FEE, rng.pick([0n, 4999999n, 5000000n, 20000000n])] as [string, unknown]]
        : []),
    ],
  },
});

const transferParams = (world: World, rng: Rng): Record<string, unknown> => ({
  tokenID: rng.pick(world.tokens),
  amount: amountOf(rng),
  receivingChainID: rng.pick([PARTNER, PARTNER, OTHER, world.setup.chainID]),
  recipientAddress: rng.next() < 0.5 ? rng.pick(world.addresses) : rng.bytes(20),
  data: rng.pick(['', 'hello', 'x'.repeat(64)]),
  messageFee: rng.pick([0n, 1000n, 10000000n, amountOf(rng)]),
  messageFeeTokenID: rng.next() < 0.85 ? world.setup.messageFeeTokenID : rng.pick(world.tokens),
});

const randomCCM = (world: World, rng: Rng, overrides: Partial<CCMessage> = {}): CCMessage => {
  const params = messageCodec.encode({
    tokenID: rng.pick(world.tokens),
    amount: amountOf(rng),
    senderAddress: rng.next() < 0.5 ? rng.pick(world.addresses) : rng.bytes(20),
    recipientAddress: rng.next() < 0.5 ? rng.pick(world.addresses) : rng.bytes(20),
    data: rng.pick(['', 'memo']),
  });
  return {
    nonce: BigInt(rng.int(1000)),
    module: 'token',
    crossChainCommand: 'transferCrossChain',
    sendingChainID: rng.pick([PARTNER, PARTNER, OTHER, world.setup.chainID]),
    receivingChainID: rng.next() < 0.8 ? world.setup.chainID : OTHER,
    fee: rng.pick([0n, 1000n, 5000000n, 10000000n, amountOf(rng)]),
    status: rng.pick([0, 0, 0, 1, 63, 64, 65]),
    params,
    ...overrides,
  };
};

const compare = async (world: World, ops: Operation[], label: string) => {
  const klayr = await runKlayr(world.setup, ops);
  const ours = runKestrel(world.setup, ops, missingEntry);
  assert.deepEqual(ours, klayr, label);
  return klayr;
};

describe('token:transferCrossChain against klayr-framework 0.12.3', () => {
  it('verifies and executes as Klayr over random states and params (state, events, kept events, context store, sends)', async () => {
    const rng = new Rng(1101);
    const seen = new Set<string>();
    for (let i = 0; i < 150; i++) {
      const world = randomWorld(rng);
      const params = transferParams(world, rng);
      for (const phase of ['verify', 'execute'] as const) {
        const outcome = await compare(world, [{ kind: 'transferCrossChain', phase, params }], `case ${i} ${phase}`);
        seen.add(`${phase}:${outcome.results[0]!.replace(/kly\w+|\d{4,}|[0-9a-f]{16}/g, '#')}`);
      }
    }
    // the random cases reach every rule and both outcomes
    for (const expected of [
      'verify:ok',
      'verify:Receiving chain cannot be the sending chain.',
      'verify:Token must be native to either the sending or the receiving chain.',
      'verify:Invalid message fee Token ID.',
      'execute:ok',
      'execute:Transaction ran out of fee.',
    ])
      assert.ok(seen.has(expected), `${expected} in ${[...seen].join(' | ')}`);
    assert.ok(
      [...seen].some((s) => s.startsWith('verify:# balance')),
      'an insufficient balance',
    );
  });

  it("refuses each verify rule with Klayr's message", async () => {
    const rng = new Rng(7);
    const world = randomWorld(rng, { chainID: MAINCHAIN, messageFeeTokenID: KLY });
    const sender = world.setup.senderAddress;
    // on the mainchain, chainID || 00000000 is KLY itself
    const native = Buffer.concat([MAINCHAIN, hex('00000001')]);
    const balance = (tokenID: Buffer, amount: bigint) => ({
      key: key(0, Buffer.concat([sender, tokenID])),
      value: userCodec.encode({ availableBalance: amount, lockedBalances: [] }),
    });
    const funded: World = {
      ...world,
      setup: {
        ...world.setup,
        entries: [
          ...world.setup.entries.filter((e) => !e.key.subarray(6, 26).equals(sender)),
          balance(native, 1000n),
          balance(KLY, 500n),
        ],
      },
    };
    const base = {
      tokenID: native,
      amount: 1000n,
      receivingChainID: PARTNER,
      recipientAddress: rng.bytes(20),
      data: '',
      messageFee: 400n,
      messageFeeTokenID: KLY,
    };
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'ok'],
      [{ receivingChainID: MAINCHAIN }, 'Receiving chain cannot be the sending chain.'],
      [
        { tokenID: Buffer.concat([OTHER, hex('00000000')]) },
        'Token must be native to either the sending or the receiving chain.',
      ],
      [{ messageFeeTokenID: native }, 'Invalid message fee Token ID.'],
      [{ amount: 1001n }, 'insufficient'],
      [{ messageFee: 501n }, 'insufficient'],
      // one token for both: amount and message fee summed
      [{ tokenID: KLY, amount: 101n }, 'insufficient'],
      [{ tokenID: KLY, amount: 100n }, 'ok'],
    ];
    for (const [change, expected] of cases) {
      const outcome = await compare(
        funded,
        [{ kind: 'transferCrossChain', phase: 'verify', params: { ...base, ...change } }],
        JSON.stringify(change, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
      );
      if (expected === 'insufficient')
        assert.match(outcome.results[0]!, /^kly\w+ balance \d+ for [0-9a-f]{16} is not sufficient for \d+\.$/);
      else assert.equal(outcome.results[0], expected);
    }
  });

  it('escrows a native token (creating the escrow account out of the fee) and sends the CCM with the message fee', async () => {
    const rng = new Rng(8);
    const world = randomWorld(rng, {
      chainID: MAINCHAIN,
      messageFeeTokenID: KLY,
      contextStore: [[AVAILABLE_FEE, 7000000n]],
    });
    const sender = world.setup.senderAddress;
    const native = Buffer.concat([MAINCHAIN, hex('00000001')]);
    const entries = world.setup.entries.filter(
      (e) => !e.key.subarray(6, 26).equals(sender) && !e.key.subarray(0, 6).equals(key(2, Buffer.alloc(0))),
    );
    entries.push({
      key: key(0, Buffer.concat([sender, native])),
      value: userCodec.encode({ availableBalance: 5000n, lockedBalances: [] }),
    });
    entries.push({
      key: key(0, Buffer.concat([sender, KLY])),
      value: userCodec.encode({ availableBalance: 900n, lockedBalances: [] }),
    });
    const outcome = await compare(
      { ...world, setup: { ...world.setup, entries } },
      [
        {
          kind: 'transferCrossChain',
          phase: 'execute',
          params: {
            tokenID: native,
            amount: 3000n,
            receivingChainID: PARTNER,
            recipientAddress: rng.bytes(20),
            data: 'to the sidechain',
            messageFee: 900n,
            messageFeeTokenID: KLY,
          },
        },
      ],
      'escrow',
    );
    assert.deepEqual(outcome.results, ['ok']);
    assert.deepEqual(
      outcome.events.map((e) => e.split(':').slice(0, 2).join(':')),
      ['token:initializeEscrowAccount', 'token:transferCrossChain'],
    );
    assert.equal(outcome.sends.length, 1);
    assert.equal(outcome.sends[0]!.fee, '900');
    assert.ok(outcome.state.some((e) => e.startsWith(key(2, Buffer.concat([PARTNER, native])).toString('hex'))));
  });
});

describe('the transferCrossChain CCM against klayr-framework 0.12.3', () => {
  it('verifies and executes as Klayr over random CCMs and states', async () => {
    const rng = new Rng(2202);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const world = ccProcessing(randomWorld(rng), rng);
      const ccm = randomCCM(world, rng);
      for (const phase of ['verify', 'execute'] as const) {
        const outcome = await compare(world, [{ kind: 'ccCommand', phase, ccm }], `case ${i} ${phase}`);
        seen.add(`${phase}:${outcome.results[0]!.replace(/[0-9a-f]{16}/g, '#')}`);
      }
    }
    for (const expected of [
      'verify:ok',
      'verify:Invalid CCM status code.',
      'verify:Token must be native to either the sending or the receiving chain.',
      'verify:Insufficient balance in escrow account.',
      'execute:ok',
      'execute:tokenID # is not supported',
      'execute:Cross-chain message ran out of fee.',
    ])
      assert.ok(seen.has(expected), `${expected} in ${[...seen].join(' | ')}`);
  });

  it('credits the sender instead of the recipient when the CCM bounced', async () => {
    const rng = new Rng(9);
    const world = ccProcessing(randomWorld(rng, { chainID: MAINCHAIN }), rng);
    const [sender, recipient] = [rng.bytes(20), rng.bytes(20)];
    const tokenID = Buffer.concat([PARTNER, hex('00000000')]);
    const params = messageCodec.encode({
      tokenID,
      amount: 77n,
      senderAddress: sender,
      recipientAddress: recipient,
      data: '',
    });
    const setup = {
      ...world.setup,
      contextStore: [
        [CCM_PROCESSING, true],
        [AVAILABLE_CCM_FEE, 5000000n],
      ] as [string, unknown][],
      entries: [
        ...world.setup.entries.filter((e) => !e.key.subarray(0, 6).equals(key(3, Buffer.alloc(0)))),
        { key: key(3, Buffer.alloc(0)), value: compile(supportedTokensStoreSchema).encode({ supportedTokenIDs: [] }) },
      ],
    };
    const outcome = await compare(
      { ...world, setup },
      [
        {
          kind: 'ccCommand',
          phase: 'execute',
          ccm: randomCCM(world, rng, { sendingChainID: PARTNER, receivingChainID: MAINCHAIN, status: 1, params }),
        },
      ],
      'bounced',
    );
    assert.deepEqual(outcome.results, ['ok']);
    assert.ok(outcome.state.some((e) => e.startsWith(key(0, Buffer.concat([sender, tokenID])).toString('hex'))));
    assert.ok(!outcome.state.some((e) => e.startsWith(key(0, Buffer.concat([recipient, tokenID])).toString('hex'))));
  });
});

/** The world as a CCM from the partner chain finds it when all is in order: the relayer's fee token account, every token supported, escrows of the partner chain that cover any amount. */
const fromPartner = (world: World): World => {
  const { senderAddress, messageFeeTokenID, chainID } = world.setup;
  const relayerKey = key(0, Buffer.concat([senderAddress, messageFeeTokenID]));
  const escrows = world.tokens
    .filter((t) => t.subarray(0, 4).equals(chainID))
    .map((t) => key(2, Buffer.concat([PARTNER, t])));
  const replaced = [relayerKey, ...escrows, key(3, Buffer.alloc(0))];
  const entries = world.setup.entries.filter((e) => !replaced.some((k) => k.equals(e.key)));
  entries.push({ key: relayerKey, value: userCodec.encode({ availableBalance: 0n, lockedBalances: [] }) });
  for (const escrow of escrows)
    entries.push({ key: escrow, value: compile(escrowStoreSchema).encode({ amount: 10n ** 15n }) });
  entries.push({
    key: key(3, Buffer.alloc(0)),
    value: compile(supportedTokensStoreSchema).encode({ supportedTokenIDs: [] }),
  });
  return { ...world, setup: { ...world.setup, entries } };
};

describe("the token and fee modules' cross-chain hooks against klayr-framework 0.12.3", () => {
  const hooks: ['token' | 'fee', Extract<Operation, { kind: 'hook' }>['hook']][] = [
    ['token', 'verifyCrossChainMessage'],
    ['token', 'beforeCrossChainCommandExecute'],
    ['token', 'beforeCrossChainMessageForwarding'],
    ['fee', 'beforeCrossChainCommandExecute'],
    ['fee', 'afterCrossChainCommandExecute'],
  ];
  for (const [module, hook] of hooks) {
    it(`${module} ${hook} over random CCMs and states`, async () => {
      const rng = new Rng(hook.length * 31 + module.length);
      const results = new Set<string>();
      for (let i = 0; i < 120; i++) {
        let world = ccProcessing(randomWorld(rng), rng);
        const ccm = randomCCM(world, rng);
        // after the command, what is left of the CCM's fee is at most the fee (beforeCrossChainCommandExecute set it to the fee)
        if (hook === 'afterCrossChainCommandExecute')
          world = {
            ...world,
            setup: {
              ...world.setup,
              contextStore: [
                [CCM_PROCESSING, true],
                [AVAILABLE_CCM_FEE, rng.pick([0n, ccm.fee, ccm.fee / 2n])],
              ],
            },
          };
        const outcome = await compare(
          world,
          [{ kind: 'hook', module, hook, ccm, ccmFailed: rng.next() < 0.5 }],
          `${module} ${hook} case ${i}`,
        );
        results.add(outcome.results[0]!);
      }
      assert.ok(results.has('ok'), [...results].join(' | '));
      if (!(module === 'fee' && hook === 'beforeCrossChainCommandExecute'))
        assert.ok(results.size > 1, `a failure too: ${[...results].join(' | ')}`);
    });
  }

  it('apply a CCM as the interoperability module does: token then fee before, the command, fee after', async () => {
    const rng = new Rng(4404);
    let applied = 0;
    let initializedOutOfTheCCMFee = 0;
    for (let i = 0; i < 160; i++) {
      const random = ccProcessing(randomWorld(rng), rng);
      // every other CCM as a partner chain sends them: a relayer with an account, tokens supported, escrows that hold enough
      const world = i % 2 === 0 ? random : fromPartner(random);
      const ccm =
        i % 2 === 0
          ? randomCCM(world, rng)
          : randomCCM(world, rng, { sendingChainID: PARTNER, receivingChainID: world.setup.chainID, status: 0 });
      const outcome = await compare(
        world,
        [
          { kind: 'hook', module: 'token', hook: 'verifyCrossChainMessage', ccm },
          { kind: 'hook', module: 'token', hook: 'beforeCrossChainCommandExecute', ccm },
          { kind: 'hook', module: 'fee', hook: 'beforeCrossChainCommandExecute', ccm },
          { kind: 'ccCommand', phase: 'verify', ccm },
          { kind: 'ccCommand', phase: 'execute', ccm },
          { kind: 'hook', module: 'fee', hook: 'afterCrossChainCommandExecute', ccm },
        ],
        `flow ${i}`,
      );
      if (outcome.results.every((r) => r === 'ok')) {
        applied += 1;
        if (outcome.events.some((e) => e.startsWith('token:initializeUserAccount:'))) initializedOutOfTheCCMFee += 1;
        assert.ok(outcome.events.at(-1)!.startsWith('fee:relayerFeeProcessed:'), `flow ${i}`);
      }
    }
    assert.ok(
      applied >= 30 && initializedOutOfTheCCMFee >= 10,
      `${applied} applied, ${initializedOutOfTheCCMFee} with an account initialization`,
    );
  });

  it('token recover over random store entries of a terminated chain', async () => {
    const rng = new Rng(5505);
    const results = new Set<string>();
    for (let i = 0; i < 150; i++) {
      // recoverState is a transaction: a recovered account's initialization is paid out of its fee
      const world = randomWorld(rng);
      const address = rng.next() < 0.5 ? rng.pick(world.addresses) : rng.bytes(20);
      const tokenID = rng.pick(world.tokens);
      const storeKey = rng.next() < 0.9 ? Buffer.concat([address, tokenID]) : rng.bytes(rng.pick([20, 27, 29]));
      const storeValue = rng.pick([
        userCodec.encode({ availableBalance: amountOf(rng), lockedBalances: [] }),
        userCodec.encode({
          availableBalance: amountOf(rng),
          lockedBalances: [{ module: 'pos', amount: amountOf(rng) }],
        }),
        userCodec.encode({ availableBalance: 1n, lockedBalances: [{ module: '', amount: 1n }] }),
        rng.bytes(7),
      ]);
      const substorePrefix = rng.next() < 0.9 ? computeSubstorePrefix(0) : computeSubstorePrefix(1);
      const outcome = await compare(
        world,
        [{ kind: 'recover', terminatedChainID: rng.pick([PARTNER, OTHER]), substorePrefix, storeKey, storeValue }],
        `recover ${i}`,
      );
      results.add(outcome.results[0]!);
    }
    for (const expected of ['ok', 'Invalid arguments.', 'Insufficient escrow amount.'])
      assert.ok(results.has(expected), `${expected} in ${[...results].join(' | ')}`);
  });
});

describe('the token methods interoperability calls, against klayr-framework 0.12.3', () => {
  it('payMessageFee, initializeEscrowAccount, getEscrowedAmount, isTokenSupported', async () => {
    const rng = new Rng(6606);
    const results = new Set<string>();
    for (let i = 0; i < 150; i++) {
      const world = randomWorld(rng);
      const chain = rng.pick([PARTNER, OTHER, world.setup.chainID]);
      const tokenID = rng.pick(world.tokens);
      const op: Operation = rng.pick<Operation>([
        {
          kind: 'payMessageFee',
          payFromAddress: rng.next() < 0.8 ? rng.pick(world.addresses) : rng.bytes(20),
          receivingChainID: chain,
          fee: amountOf(rng),
        },
        { kind: 'initializeEscrowAccount', escrowChainID: chain, tokenID },
        { kind: 'getEscrowedAmount', escrowChainID: chain, tokenID },
        {
          kind: 'isTokenSupported',
          tokenID:
            rng.next() < 0.8
              ? tokenID
              : Buffer.concat([rng.pick([PARTNER, OTHER, hex('04000000'), hex('05000000')]), rng.bytes(4)]),
        },
      ]);
      const outcome = await compare(world, [op], `${op.kind} ${i}`);
      results.add(`${op.kind}:${outcome.results[0]!.replace(/kly\w+|\d+|[0-9a-f]{8,}/g, '#')}`);
    }
    for (const expected of [
      'payMessageFee:ok',
      'payMessageFee:NotFoundError',
      'initializeEscrowAccount:ok',
      'initializeEscrowAccount:TokenID # is not native token.',
      'getEscrowedAmount:= #',
      'getEscrowedAmount:Only native token can have escrow amount.',
      'isTokenSupported:= true',
      'isTokenSupported:= false',
    ]) {
      assert.ok(results.has(expected), `${expected} in ${[...results].join(' | ')}`);
    }
  });
});

describe("the token module's cross-chain declarations and endpoints against klayr-framework 0.12.3", () => {
  it('publishes transferCrossChain in its metadata and declares the transferCrossChain CCM as Klayr does, once given the interoperability method', async () => {
    const rng = new Rng(11);
    const world = randomWorld(rng);
    const klayr = (await klayrTokenModule(world.setup)).module;
    const ours = new TokenModule(new TokenMethod(tokenConfig(world.setup.chainID)));
    assert.deepEqual(
      ours.metadata().commands.map((c) => c.name),
      ['transfer'],
    );
    assert.equal(ours.crossChainMethod, undefined);
    ours.setInteroperabilityMethod({} as InteroperabilityMethod);
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    assert.deepEqual(json(ours.metadata().commands), json(klayr.metadata().commands));
    assert.deepEqual(
      ours.crossChainCommands.map((c) => [c.name, c.schema]),
      klayr.crossChainCommand.map((c: { name: string; schema: unknown }) => [c.name, c.schema]),
    );
    assert.deepEqual(Object.keys(ours.crossChainMethod!).sort(), [
      'beforeCrossChainCommandExecute',
      'beforeCrossChainMessageForwarding',
      'recover',
      'verifyCrossChainMessage',
    ]);
    assert.throws(
      () => new TokenModule().setInteroperabilityMethod({} as InteroperabilityMethod),
      /built for genesis only/,
    );
  });

  it('answers token_getEscrowedAmounts, token_hasEscrowAccount, token_getInitializationFees and token_isSupported as Klayr over random states', async () => {
    const rng = new Rng(12);
    for (let i = 0; i < 40; i++) {
      const world = randomWorld(rng);
      const { module: klayr, endpointContext } = await klayrTokenModule(world.setup);
      const state = new BlockState(EMPTY_STATE);
      for (const { key: k, value } of world.setup.entries) state.set(k, value);
      const ours = tokenEndpoints(() => ({ store: (p: Buffer, s: Buffer) => new SubStore(state, p, s) }), {
        chainID: world.setup.chainID,
        userAccountInitializationFee: 5000000n,
        escrowAccountInitializationFee: 7000000n,
      });
      const call = async (name: string, params: Record<string, unknown>) => {
        const schema = ours[name]!.params;
        const issues = schema === undefined ? [] : compileValidator(schema)(params);
        assert.deepEqual(issues, [], `${name} ${JSON.stringify(params)}`);
        return [
          await ours[name]!.handler({ params, transport: 'ipc' }),
          await klayr.endpoint[name](endpointContext(params)),
        ];
      };
      const checks: [string, Record<string, unknown>][] = [
        ['getEscrowedAmounts', {}],
        ['getInitializationFees', {}],
        ['getSupportedTokens', {}],
        ...[PARTNER, OTHER, world.setup.chainID].flatMap((chain) =>
          world.tokens.map((tokenID): [string, Record<string, unknown>] => [
            'hasEscrowAccount',
            { escrowChainID: chain.toString('hex'), tokenID: tokenID.toString('hex') },
          ]),
        ),
        ...world.tokens.map((tokenID): [string, Record<string, unknown>] => [
          'isSupported',
          { tokenID: tokenID.toString('hex') },
        ]),
        ...world.addresses.map((address): [string, Record<string, unknown>] => [
          'getBalances',
          { address: addressToKlayr32(address) },
        ]),
      ];
      for (const [name, params] of checks) {
        const [got, expected] = await call(name, params);
        assert.deepEqual(got, expected, `${name} ${JSON.stringify(params)} case ${i}`);
      }
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { compileValidator } from '../../src/lib/codec/index.js';
import { addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { ed25519KeyPairFromPassphraseAndPath, keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { encodeTransaction, signTransaction } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { authEndpoints } from '../../src/modules/auth/endpoint.js';
import { rewardConfig } from '../../src/modules/dynamic_reward/config.js';
import { dynamicRewardEndpoints } from '../../src/modules/dynamic_reward/endpoint.js';
import { feeConfig } from '../../src/modules/fee/config.js';
import { feeEndpoints } from '../../src/modules/fee/endpoint.js';
import { mainchainInteroperabilityEndpoints } from '../../src/modules/interoperability/endpoint.js';
import { posConfig } from '../../src/modules/pos/config.js';
import { posEndpoints } from '../../src/modules/pos/endpoint.js';
import { randomEndpoints } from '../../src/modules/random/endpoint.js';
import { tokenEndpoints } from '../../src/modules/token/endpoint.js';
import { userKeyOf } from '../../src/modules/token/stores.js';
import { validatorsEndpoints } from '../../src/modules/validators/endpoint.js';
import type { EndpointDefinition } from '../../src/rpc/registry.js';
import { devnetPassphrase, devValidators } from '../helpers/devnet.js';
import { devnetChainID as chainID, devnetGenesis, klayrDevnetGenesis } from '../helpers/genesis_compare.js';
import { Rng } from '../helpers/random.js';

const state = new BlockState(EMPTY_STATE);
executeGenesis(applicationModules(loadConfig()), devnetGenesis(), chainID, state);
const view = () => ({ store: (p: Buffer, s: Buffer) => new SubStore(state, p, s) });

/** Calls our endpoint the way the dispatcher does: params schema first, then the handler. */
const call = async (endpoint: EndpointDefinition, params: Record<string, unknown>): Promise<unknown> => {
  if (endpoint.params !== undefined) {
    const issues = compileValidator(endpoint.params)(params);
    if (issues.length > 0) throw new Error(issues[0]!.message);
  }
  return endpoint.handler({ params, transport: 'ipc' });
};

const klayrCall = async (fn: (ctx: unknown) => unknown, ctx: unknown): Promise<unknown> => fn(ctx);

describe("token endpoints answer as klayr-framework's TokenEndpoint on the devnet genesis state", () => {
  const ours = tokenEndpoints(view, {
    chainID,
    userAccountInitializationFee: 5000000n,
    escrowAccountInitializationFee: 5000000n,
  });

  it('for funded, unknown and malformed addresses and native, mainchain and foreign token IDs', async () => {
    const klayr = await klayrDevnetGenesis();
    const endpoint = klayr.modules.token.endpoint;
    const rng = new Rng(17);
    const funded = klayr.entries
      .filter((e) => e.key.subarray(0, 6).toString('hex') === '3c469e9d0000')
      .map((e) => e.key.subarray(6, 26));
    const addresses = [...funded.slice(0, 5).map((a) => addressToKlayr32(a)), addressToKlayr32(rng.bytes(20))];
    const tokenIDs = ['0400000000000000', '0400000100000000', '0100000000000000', '0000000000000000'];
    const cases: [string, Record<string, unknown>][] = [
      ['getTotalSupply', {}],
      ['getSupportedTokens', {}],
      ['getEscrowedAmounts', {}],
      ['getInitializationFees', {}],
      ...addresses.map((address): [string, Record<string, unknown>] => ['getBalances', { address }]),
      ...addresses.flatMap((address) =>
        tokenIDs.map((tokenID): [string, Record<string, unknown>] => ['getBalance', { address, tokenID }]),
      ),
      ...addresses.flatMap((address) =>
        tokenIDs.map((tokenID): [string, Record<string, unknown>] => ['hasUserAccount', { address, tokenID }]),
      ),
      ...tokenIDs.map((tokenID): [string, Record<string, unknown>] => ['isSupported', { tokenID }]),
      ...tokenIDs.map((tokenID): [string, Record<string, unknown>] => [
        'hasEscrowAccount',
        { tokenID, escrowChainID: '04000001' },
      ]),
    ];
    for (const [method, params] of cases) {
      const theirs = await klayrCall((ctx) => endpoint[method](ctx), klayr.endpointContext(params));
      assert.deepEqual(await call(ours[method]!, params), theirs, `${method} ${JSON.stringify(params)}`);
    }
    assert.equal(
      ((await call(ours.getBalances!, { address: addresses[0] })) as { balances: unknown[] }).balances.length,
      1,
    );
  });

  it("refuses malformed params with the schema's reason", async () => {
    await assert.rejects(
      () => call(ours.getBalance!, { address: 'kly123', tokenID: '0400000000000000' }),
      /format "klayr32"/,
    );
    await assert.rejects(
      () => call(ours.getBalance!, { address: addressToKlayr32(Buffer.alloc(20)), tokenID: '04' }),
      /fewer than 16/,
    );
    await assert.rejects(() => call(ours.isSupported!, {}), /required property 'tokenID'/);
  });

  it('the user store key of params (an address and a hex token ID) is the address then the token ID, and bad hex is refused', () => {
    const address = Buffer.alloc(20, 7);
    assert.equal(
      userKeyOf(addressToKlayr32(address), '0400000000000001').toString('hex'),
      `${address.toString('hex')}0400000000000001`,
    );
    // the plugins' in-process calls reach handlers without the params check
    for (const tokenID of ['04', '04000000000000zz', '040000000000000001'])
      assert.throws(() => userKeyOf(addressToKlayr32(address), tokenID), /Token ID must be 8 bytes in hex/);
  });
});

describe("validators endpoints answer as klayr-framework's ValidatorsEndpoint on the devnet genesis state", () => {
  const ours = validatorsEndpoints(view);

  it('getValidator for validators and other addresses; validateBLSKey is {valid:false} for a registered key or a wrong proof, never an error', async () => {
    const klayr = await klayrDevnetGenesis();
    const endpoint = klayr.modules.validators.endpoint;
    const rng = new Rng(23);
    const keys = devValidators();
    const fresh = { blsKey: keys[0]!.plain.blsKey, proofOfPossession: keys[0]!.plain.blsProofOfPossession };
    const cases: [string, Record<string, unknown>][] = [
      ['getValidator', { address: keys[0]!.address }],
      ['getValidator', { address: keys[102]!.address }],
      ['getValidator', { address: addressToKlayr32(rng.bytes(20)) }],
      ['validateBLSKey', fresh],
      ['validateBLSKey', { blsKey: keys[1]!.plain.blsKey, proofOfPossession: keys[0]!.plain.blsProofOfPossession }],
      ['validateBLSKey', { blsKey: `c0${'00'.repeat(47)}`, proofOfPossession: keys[0]!.plain.blsProofOfPossession }],
    ];
    for (const [method, params] of cases) {
      const theirs = await endpoint[method](klayr.endpointContext(params));
      assert.deepEqual(await call(ours[method]!, params), theirs, `${method} ${JSON.stringify(params)}`);
    }
    assert.deepEqual(
      await call(ours.validateBLSKey!, fresh),
      { valid: false },
      'a registered key is not valid for registration',
    );
    await assert.rejects(
      () => call(ours.validateBLSKey!, { blsKey: 'zz', proofOfPossession: '00' }),
      /format "hex"|characters/,
    );
  });
});

describe('auth and fee endpoints against klayr-framework on the devnet genesis state', () => {
  const auth = authEndpoints(view, chainID);
  const fee = feeEndpoints(feeConfig(chainID, loadConfig().modules.fee));

  it("isValidSignature, isValidNonce, sortMultisignatureGroup, the multisig schema and tag, and the fee settings equal Klayr's", async () => {
    const klayr = await klayrDevnetGenesis();
    const sender = ed25519KeyPairFromPassphraseAndPath(devnetPassphrase(), "m/44'/134'/0'");
    const base = {
      module: 'token',
      command: 'transfer',
      fee: 1000000n,
      senderPublicKey: sender.publicKey,
      params: Buffer.alloc(10),
      signatures: [],
    };
    const good = signTransaction({ ...base, nonce: 0n }, chainID, sender.privateKey);
    const laterNonce = signTransaction({ ...base, nonce: 3n }, chainID, sender.privateKey);
    const wrongKey = signTransaction({ ...base, nonce: 0n }, chainID, keyPairFromSeed(Buffer.alloc(32, 5)).privateKey);
    const otherChain = signTransaction({ ...base, nonce: 0n }, Buffer.from('04000001', 'hex'), sender.privateKey);
    for (const tx of [good, laterNonce, wrongKey, otherChain]) {
      const params = { transaction: encodeTransaction(tx).toString('hex') };
      for (const method of ['isValidSignature', 'isValidNonce']) {
        assert.deepEqual(
          await call(auth[method]!, params),
          await klayr.modules.auth.endpoint[method](klayr.endpointContext(params)),
          method,
        );
      }
    }
    assert.deepEqual(await call(auth.isValidSignature!, { transaction: encodeTransaction(wrongKey).toString('hex') }), {
      verified: false,
    });
    const rng = new Rng(29);
    const pair = (sig = 128) => ({
      publicKey: rng.bytes(32).toString('hex'),
      signature: rng.bytes(sig / 2).toString('hex'),
    });
    const group = { mandatory: [pair(), pair(), pair()], optional: [pair(), pair(0), pair()] };
    assert.deepEqual(
      await call(auth.sortMultisignatureGroup!, group),
      klayr.modules.auth.endpoint.sortMultisignatureGroup(klayr.endpointContext(group)),
    );
    assert.deepEqual(
      await call(auth.getMultiSigRegMsgSchema!, {}),
      await klayr.modules.auth.endpoint.getMultiSigRegMsgSchema(klayr.endpointContext({})),
    );
    assert.deepEqual(
      await call(auth.getMultiSigRegMsgTag!, {}),
      klayr.modules.auth.endpoint.getMultiSigRegMsgTag(klayr.endpointContext({})),
    );
    assert.deepEqual(
      await call(fee.getFeeTokenID!, {}),
      await klayr.modules.fee.endpoint.getFeeTokenID(klayr.endpointContext({})),
    );
    assert.deepEqual(
      await call(fee.getMinFeePerByte!, {}),
      await klayr.modules.fee.endpoint.getMinFeePerByte(klayr.endpointContext({})),
    );
  });

  it("getAuthAccount answers Klayr's default auth account for an address with a token account and no auth entry yet (equal to klayr-framework's answer)", async () => {
    const klayr = await klayrDevnetGenesis();
    const address = devValidators()[0]!.address;
    const funded = (await call(
      tokenEndpoints(view, { chainID, userAccountInitializationFee: 0n, escrowAccountInitializationFee: 0n })
        .getBalances!,
      { address },
    )) as { balances: unknown[] };
    assert.ok(funded.balances.length > 0, 'the devnet validator holds a token account');
    const expected = { nonce: '0', numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };
    assert.deepEqual(await call(auth.getAuthAccount!, { address }), expected);
    assert.deepEqual(await klayr.modules.auth.endpoint.getAuthAccount(klayr.endpointContext({ address })), expected);
  });

  it('getAuthAccount errors for an address the chain has never seen (no auth entry, no token account), as the interface spec says', async () => {
    const unseen = addressToKlayr32(new Rng(404).bytes(20));
    await assert.rejects(
      () => call(auth.getAuthAccount!, { address: unseen }),
      new RegExp(`Auth account for address ${unseen} does not exist`),
    );
    await assert.rejects(() => call(auth.getAuthAccount!, { address: 'kly0' }), /format "klayr32"/);
    await assert.rejects(() => call(auth.isValidNonce!, { transaction: 'zz' }), /format "hex"/);
    await assert.rejects(() => call(auth.isValidNonce!, { transaction: '0a' }), /CodecError|Truncated|Missing/);
  });
});

describe('mainchain interoperability endpoints against klayr-framework on the devnet genesis state', () => {
  const ours = mainchainInteroperabilityEndpoints(view);

  it('fees, own chain account, chain ID and chain name availability, chain accounts and channels, CCM schema', async () => {
    const klayr = await klayrDevnetGenesis();
    const endpoint = klayr.modules.interoperability.endpoint;
    const cases: [string, Record<string, unknown>][] = [
      ['getRegistrationFee', {}],
      ['getMinimumMessageFee', {}],
      ['getOwnChainAccount', {}],
      ...['04000000', '04000001', '04123456', '05000001'].map((chainID): [string, Record<string, unknown>] => [
        'isChainIDAvailable',
        { chainID },
      ]),
      ...['klayr_mainchain', 'mysidechain', 'a'].map((name): [string, Record<string, unknown>] => [
        'isChainNameAvailable',
        { name },
      ]),
      ['getAllChainAccounts', { chainID: '00000000' }],
      ['getCCMSchema', {}],
    ];
    for (const [method, params] of cases) {
      assert.deepEqual(
        await call(ours[method]!, params),
        await endpoint[method](klayr.endpointContext(params)),
        `${method} ${JSON.stringify(params)}`,
      );
    }
    await assert.rejects(() => call(ours.isChainNameAvailable!, { name: 'Bad Name' }), /Invalid name property/);
    await assert.rejects(
      () => endpoint.isChainNameAvailable(klayr.endpointContext({ name: 'Bad Name' })),
      /Invalid name property/,
    );
    // no sidechain is registered on the devnet: every per-chain reader errors, on both sides
    for (const method of [
      'getChainAccount',
      'getChannel',
      'getTerminatedStateAccount',
      'getTerminatedOutboxAccount',
      'getChainValidators',
    ]) {
      await assert.rejects(() => call(ours[method]!, { chainID: '04000001' }), /does not exist/, method);
      await assert.rejects(async () => endpoint[method](klayr.endpointContext({ chainID: '04000001' })), Error, method);
      await assert.rejects(() => call(ours[method]!, { chainID: 'zzzzzzzz' }), /format|hex/, method);
    }
  });
});

describe('dynamicReward endpoints against klayr-framework on the devnet genesis state', () => {
  const config = loadConfig();
  let tip = 0;
  const ours = dynamicRewardEndpoints(view, rewardConfig(chainID, config.modules.dynamicReward), {
    blockTime: config.genesis.blockTime,
    roundLength: 53,
    height: () => tip,
  });

  it('default reward and annual inflation at heights around every bracket, reward token, expected rewards of active, standby and unknown addresses', async () => {
    const klayr = await klayrDevnetGenesis();
    const endpoint = klayr.modules.dynamicReward.endpoint;
    const heights = [0, 1, 359, 360, 361, 1359, 1360, 2360, 3359, 4360, 5360, 100000];
    const validators = devValidators();
    const cases: [string, Record<string, unknown>][] = [
      ['getRewardTokenID', {}],
      ...heights.flatMap((height): [string, Record<string, unknown>][] => [
        ['getDefaultRewardAtHeight', { height }],
        ['getAnnualInflation', { height }],
      ]),
      ...[
        validators[0]!.address,
        validators[60]!.address,
        validators[102]!.address,
        addressToKlayr32(Buffer.alloc(20, 1)),
      ].map((validatorAddress): [string, Record<string, unknown>] => [
        'getExpectedValidatorRewards',
        { validatorAddress },
      ]),
    ];
    for (tip of [0, 5000]) {
      for (const [method, params] of cases) {
        assert.deepEqual(
          await call(ours[method]!, params),
          await endpoint[method](klayr.endpointContext(params, tip)),
          `${method} ${JSON.stringify(params)} at ${tip}`,
        );
      }
    }
    assert.notEqual(
      (
        (await call(ours.getExpectedValidatorRewards!, { validatorAddress: validators[0]!.address })) as {
          blockReward: string;
        }
      ).blockReward,
      '0',
    );
    await assert.rejects(() => call(ours.getDefaultRewardAtHeight!, { height: -1 }), /must be >= 0/);
  });
});

describe('pos and random endpoints against klayr-framework on the devnet genesis state', () => {
  const pos = posEndpoints(view, posConfig(chainID, loadConfig().modules.pos), () => ({
    height: 0,
    aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
  }));
  const random = randomEndpoints(view);

  it('validators, stakes, locks, unlocks, rewards, constants, PoS token and registration fee; seed reveals without previous reveals', async () => {
    const klayr = await klayrDevnetGenesis();
    const validators = devValidators();
    const cases: [
      Record<string, EndpointDefinition>,
      Record<string, (ctx: unknown) => unknown>,
      string,
      Record<string, unknown>,
    ][] = [
      [pos, klayr.modules.pos.endpoint, 'getAllValidators', {}],
      [pos, klayr.modules.pos.endpoint, 'getConstants', {}],
      [pos, klayr.modules.pos.endpoint, 'getPoSTokenID', {}],
      [pos, klayr.modules.pos.endpoint, 'getRegistrationFee', {}],
      [pos, klayr.modules.pos.endpoint, 'getValidator', { address: validators[0]!.address }],
      [pos, klayr.modules.pos.endpoint, 'getValidator', { address: validators[77]!.address }],
      ...[validators[0]!.address, validators[60]!.address, addressToKlayr32(Buffer.alloc(20, 9))].flatMap(
        (
          address,
        ): [
          Record<string, EndpointDefinition>,
          Record<string, (ctx: unknown) => unknown>,
          string,
          Record<string, unknown>,
        ][] => [
          [pos, klayr.modules.pos.endpoint, 'getLockedStakedAmount', { address }],
          [pos, klayr.modules.pos.endpoint, 'getPendingUnlocks', { address }],
          [pos, klayr.modules.pos.endpoint, 'getClaimableRewards', { address }],
          [pos, klayr.modules.pos.endpoint, 'getLockedReward', { address, tokenID: '0400000000000000' }],
          [pos, klayr.modules.pos.endpoint, 'getLockedReward', { address, tokenID: '0400000100000000' }],
        ],
      ),
      [pos, klayr.modules.pos.endpoint, 'getValidatorsByStake', {}],
      [pos, klayr.modules.pos.endpoint, 'getValidatorsByStake', { limit: -1 }],
      [pos, klayr.modules.pos.endpoint, 'getValidatorsByStake', { limit: 3 }],
      [
        pos,
        klayr.modules.pos.endpoint,
        'getExpectedSharedRewards',
        { validatorAddress: validators[0]!.address, validatorReward: '100000000', stake: '1000000000' },
      ],
      [
        pos,
        klayr.modules.pos.endpoint,
        'getExpectedSharedRewards',
        { validatorAddress: validators[9]!.address, validatorReward: '123456789', stake: '1000' },
      ],
      [
        random,
        klayr.modules.random.endpoint,
        'isSeedRevealValid',
        { generatorAddress: validators[0]!.address, seedReveal: '00'.repeat(16) },
      ],
    ];
    for (const [ours, theirs, method, params] of cases) {
      assert.deepEqual(
        await call(ours[method]!, params),
        await theirs[method]!.call(theirs, klayr.endpointContext(params)),
        `${method} ${JSON.stringify(params)}`,
      );
    }
    assert.equal(((await call(pos.getAllValidators!, {})) as { validators: unknown[] }).validators.length, 103);
    const unknown = addressToKlayr32(Buffer.alloc(20, 3));
    await assert.rejects(() => call(pos.getValidator!, { address: unknown }), /does not exist/);
    await assert.rejects(() => klayr.modules.pos.endpoint.getValidator(klayr.endpointContext({ address: unknown })));
    await assert.rejects(() => call(pos.getStaker!, { address: unknown }), /does not exist/);
  });

  it("a seed reveal is valid only when it hashes to the generator's last revealed seed", async () => {
    const { isSeedValidInput } = await import('../../src/modules/random/method.js');
    const { sha256 } = await import('../../src/lib/crypto/hash.js');
    const generator = Buffer.alloc(20, 1);
    const seed = Buffer.alloc(16, 9);
    const reveals = [{ generatorAddress: generator, seedReveal: sha256(seed).subarray(0, 16), height: 1, valid: true }];
    assert.equal(isSeedValidInput(generator, seed, reveals), true);
    assert.equal(isSeedValidInput(generator, Buffer.alloc(16, 8), reveals), false);
    assert.equal(isSeedValidInput(Buffer.alloc(20, 2), seed, reveals), false);
    assert.equal(isSeedValidInput(Buffer.alloc(20, 2), seed, reveals, false), true);
    // the generator's latest reveal counts, not an earlier one
    const next = Buffer.alloc(16, 7);
    const later = [
      ...reveals,
      { generatorAddress: generator, seedReveal: sha256(next).subarray(0, 16), height: 5, valid: true },
    ];
    assert.equal(isSeedValidInput(generator, next, later), true);
    assert.equal(isSeedValidInput(generator, seed, later), false);
  });

  it("the reveals read only are the last written ones, one value shared by those readers, apart from a writer's copy", async () => {
    const { getValidatorReveals, readValidatorReveals, setValidatorReveals } = await import(
      '../../src/modules/random/method.js'
    );
    const overlay = new BlockState(EMPTY_STATE);
    const state = { store: (prefix: Buffer, substore: Buffer) => new SubStore(overlay, prefix, substore) };
    assert.deepEqual(readValidatorReveals(state), []);
    const written = Array.from({ length: 5 }, (_, i) => ({
      generatorAddress: Buffer.alloc(20, i),
      seedReveal: Buffer.alloc(16, i + 1),
      height: i + 1,
      valid: i % 2 === 0,
    }));
    setValidatorReveals(state, written);
    const shared = readValidatorReveals(state);
    assert.deepEqual(shared, written);
    assert.equal(readValidatorReveals(state), shared);
    const own = getValidatorReveals(state);
    own.pop();
    own[0]!.height = 99;
    assert.deepEqual(readValidatorReveals(state), written);
    setValidatorReveals(state, own);
    assert.deepEqual(readValidatorReveals(state), own);
  });
});

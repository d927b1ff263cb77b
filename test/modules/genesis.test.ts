import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { EVENT_TOPIC_FINALIZE_GENESIS_STATE, EventQueue } from '../../src/engine/state_machine/event_queue.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import type { Block } from '../../src/lib/chain/block.js';
import { computeEventRoot } from '../../src/lib/chain/events.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import type { Schema } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { DynamicRewardModule } from '../../src/modules/dynamic_reward/index.js';
import { MainchainInteroperabilityModule } from '../../src/modules/interoperability/index.js';
import { LegacyModule } from '../../src/modules/legacy/index.js';
import { posConfig } from '../../src/modules/pos/config.js';
import { PoSModule } from '../../src/modules/pos/index.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import { RandomModule } from '../../src/modules/random/index.js';
import { TokenModule } from '../../src/modules/token/index.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { registerValidatorKeys } from '../../src/modules/validators/method.js';
import {
  devnetChainID as chainID,
  compareModuleGenesis,
  devnetGenesis,
  klayrDevnetGenesis,
  prefixOf,
} from '../helpers/genesis_compare.js';
import { klayrFrameworkSchemas } from '../helpers/klayr.js';

const devnet = devnetGenesis();

const withTokenAsset = (mutate: (g: GenesisTokenStore) => void): Block => {
  const asset = devnet.assets.find((a) => a.module === 'token')!;
  const g = codec.decode<GenesisTokenStore>(genesisTokenStoreSchema, asset.data);
  mutate(g);
  return {
    ...devnet,
    assets: devnet.assets.map((a) =>
      a.module === 'token' ? { module: 'token', data: codec.encode(genesisTokenStoreSchema, g) } : a,
    ),
  };
};

describe('token module genesis', () => {
  it("writes exactly the token store entries klayr-framework's token module writes for the devnet genesis block", async () => {
    const { ours, theirs } = await compareModuleGenesis([new TokenModule()], prefixOf('token'));
    assert.equal(ours.size, 105);
    assert.deepEqual(ours, theirs);
  });

  it('refuses unsorted users, duplicate pairs, zero locks and a supply that does not add up, as Klayr does', () => {
    const cases: [string, (g: GenesisTokenStore) => void, RegExp][] = [
      ['unsorted users', (g) => g.userSubstore.reverse(), /UserSubstore must be sorted/],
      ['duplicate pair', (g) => g.userSubstore.splice(1, 0, { ...g.userSubstore[0]! }), /pair is duplicated/],
      [
        'zero lock',
        (g) => (g.userSubstore[0]!.lockedBalances = [{ module: 'pos', amount: 0n }]),
        /contains 0 amount locked balance/,
      ],
      [
        'unsorted locks',
        (g) =>
          (g.userSubstore[0]!.lockedBalances = [
            { module: 'pos', amount: 1n },
            { module: 'auth', amount: 1n },
          ]),
        /Locked balances must be sorted/,
      ],
      ['supply mismatch', (g) => (g.supplySubstore[0]!.totalSupply += 1n), /Stored total supply conflicts/],
      [
        'all-supported with ids',
        (g) => (g.supportedTokensSubstore = [{ chainID: Buffer.alloc(0), supportedTokenIDs: [Buffer.alloc(8)] }]),
        /must be an empty array/,
      ],
    ];
    for (const [name, mutate, pattern] of cases) {
      assert.throws(
        () => executeGenesis([new TokenModule()], withTokenAsset(mutate), chainID, new BlockState(EMPTY_STATE)),
        pattern,
        name,
      );
    }
  });
});

describe("random and dynamicReward genesis equal klayr-framework's on the devnet genesis block", () => {
  it('random: an empty list of validator reveals', async () => {
    const { ours, theirs } = await compareModuleGenesis([new RandomModule()], prefixOf('random'));
    assert.equal(ours.size, 1);
    assert.deepEqual(ours, theirs);
  });

  it('dynamicReward: the end-of-round timestamp is the genesis timestamp', async () => {
    const { ours, theirs } = await compareModuleGenesis([new DynamicRewardModule()], prefixOf('dynamicReward'));
    assert.equal(ours.size, 1);
    assert.deepEqual(ours, theirs);
  });
});

const posGenesisSchema = (): Schema => klayrFrameworkSchemas().find((s) => s.$id === '/pos/module/genesis')!;

describe('validators key registration against klayr-framework on the devnet validators', () => {
  it("registering the 103 genesis validators in asset order gives Klayr's validator and BLS key entries and its 206 events", async () => {
    const block = devnetGenesis();
    const pos = codec.decode<{
      validators: { address: Buffer; blsKey: Buffer; generatorKey: Buffer; proofOfPossession: Buffer }[];
    }>(posGenesisSchema(), block.assets.find((a) => a.module === 'pos')!.data);
    const state = new BlockState(EMPTY_STATE);
    // PoS registers its genesis validators while finalizing the genesis state
    const events = new EventQueue(0).childQueue(EVENT_TOPIC_FINALIZE_GENESIS_STATE);
    const ctx = { events, store: (p: Buffer, s: Buffer) => new SubStore(state, p, s) };
    for (const v of pos.validators)
      registerValidatorKeys(ctx, v.address, v.blsKey, v.generatorKey, v.proofOfPossession);
    const klayr = await klayrDevnetGenesis();
    const prefix = prefixOf('validators');
    const ours = new Map(state.overlay.changes().map((c) => [c.key.toString('hex'), c.value!.toString('hex')]));
    const theirs = new Map(
      klayr.entries
        .filter((e) => e.key.subarray(0, 4).equals(prefix) && !e.key.subarray(4, 6).equals(Buffer.from('8000', 'hex')))
        .map((e) => [e.key.toString('hex'), e.value.toString('hex')]),
    );
    assert.equal(ours.size, 206);
    assert.deepEqual(ours, theirs);
    const hex = (e: { module: string; name: string; data: Buffer; topics: Buffer[]; index: number }) => ({
      ...e,
      data: e.data.toString('hex'),
      topics: e.topics.map((t) => t.toString('hex')),
    });
    assert.deepEqual(events.getEvents().map(hex), klayr.events.map(hex));
  });

  it('refuses an address registered twice, a BLS key used twice and a wrong proof of possession, logging each failure', () => {
    const block = devnetGenesis();
    const pos = codec.decode<{
      validators: { address: Buffer; blsKey: Buffer; generatorKey: Buffer; proofOfPossession: Buffer }[];
    }>(posGenesisSchema(), block.assets.find((a) => a.module === 'pos')!.data);
    const [a, b] = pos.validators;
    const state = new BlockState(EMPTY_STATE);
    const events = new EventQueue(0);
    const ctx = { events, store: (p: Buffer, s: Buffer) => new SubStore(state, p, s) };
    registerValidatorKeys(ctx, a!.address, a!.blsKey, a!.generatorKey, a!.proofOfPossession);
    assert.throws(
      () => registerValidatorKeys(ctx, a!.address, b!.blsKey, b!.generatorKey, b!.proofOfPossession),
      /already registered as validator/,
    );
    assert.throws(
      () => registerValidatorKeys(ctx, b!.address, a!.blsKey, b!.generatorKey, a!.proofOfPossession),
      /has already been registered in the chain/,
    );
    assert.throws(
      () => registerValidatorKeys(ctx, b!.address, b!.blsKey, b!.generatorKey, a!.proofOfPossession),
      /Invalid proof of possession/,
    );
    assert.deepEqual(
      events
        .getEvents()
        .slice(2)
        .map((e) => e.name),
      ['generatorKeyRegistration', 'blsKeyRegistration', 'blsKeyRegistration'],
    );
  });
});

describe('legacy module genesis (Klayr Core)', () => {
  it('stores the 30 devnet legacy accounts by legacy address', async () => {
    const { ours } = await compareModuleGenesis([new LegacyModule()], prefixOf('legacy'));
    assert.equal(ours.size, 30);
    for (const [key, value] of ours) {
      assert.equal(key.length, (6 + 8) * 2);
      assert.ok(
        codec.decode<{ balance: bigint }>(
          { $id: '/t/l', type: 'object', properties: { balance: { dataType: 'uint64', fieldNumber: 1 } } },
          Buffer.from(value, 'hex'),
        ).balance > 0n,
      );
    }
  });
});

describe("PoS genesis with token, validators, random, dynamicReward and legacy (Klayr Core's order)", () => {
  it("writes every entry Klayr writes outside interoperability, emits Klayr's 206 events and the same next validators", async () => {
    const block = devnetGenesis();
    const state = new BlockState(EMPTY_STATE);
    const modules = [
      new TokenModule(),
      new PoSModule(posConfig(chainID, { useInvalidBLSKey: false })),
      new RandomModule(),
      new DynamicRewardModule(),
      new LegacyModule(),
    ];
    const result = executeGenesis(modules, block, chainID, state);
    const klayr = await klayrDevnetGenesis();
    const interop = Buffer.from('83ed0d25', 'hex');
    const legacy = prefixOf('legacy');
    const ours = new Map(
      state.overlay
        .changes()
        .filter((c) => !c.key.subarray(0, 4).equals(legacy))
        .map((c) => [c.key.toString('hex'), c.value!.toString('hex')]),
    );
    const theirs = new Map(
      klayr.entries
        .filter((e) => !e.key.subarray(0, 4).equals(interop))
        .map((e) => [e.key.toString('hex'), e.value.toString('hex')]),
    );
    assert.equal(ours.size, 522);
    assert.deepEqual(ours, theirs);
    const hex = (e: {
      module: string;
      name: string;
      data: Buffer;
      topics: Buffer[];
      index: number;
      height: number;
    }) => ({ ...e, data: e.data.toString('hex'), topics: e.topics.map((t) => t.toString('hex')) });
    assert.deepEqual(result.events.map(hex), klayr.events.map(hex));
    assert.equal(result.nextValidators!.certificateThreshold, klayr.certificateThreshold);
    assert.equal(result.nextValidators!.precommitThreshold, klayr.precommitThreshold);
    assert.deepEqual(
      result.nextValidators!.validators.map((v) => [
        v.address.toString('hex'),
        v.bftWeight,
        v.blsKey.toString('hex'),
        v.generatorKey.toString('hex'),
      ]),
      klayr.nextValidators.map((v) => [
        v.address.toString('hex'),
        v.bftWeight,
        v.blsKey.toString('hex'),
        v.generatorKey.toString('hex'),
      ]),
    );
  });

  it('refuses invalid names, unknown init validators and unsorted coefficients as Klayr does', () => {
    const schema = genesisStoreSchema;
    const pos = devnetGenesis().assets.find((a) => a.module === 'pos')!;
    const cases: [string, (g: GenesisPoSStore) => void, RegExp][] = [
      ['upper-case name', (g) => (g.validators[0]!.name = 'Genesis'), /Invalid validator name/],
      ['duplicate name', (g) => (g.validators[1]!.name = g.validators[0]!.name), /Validator name is not unique/],
      [
        'unknown init validator',
        (g) => (g.genesisData.initValidators[0] = Buffer.alloc(20, 7)),
        /Init validators includes non existing/,
      ],
      [
        'unsorted coefficients',
        (g) =>
          (g.validators[0]!.sharingCoefficients = [
            { tokenID: Buffer.alloc(8, 2), coefficient: Buffer.alloc(1) },
            { tokenID: Buffer.alloc(8, 1), coefficient: Buffer.alloc(1) },
          ]),
        /SharingCoefficients must be sorted/,
      ],
    ];
    for (const [name, mutate, pattern] of cases) {
      const g = codec.decode<GenesisPoSStore>(schema, pos.data);
      mutate(g);
      const block = devnetGenesis();
      const altered = {
        ...block,
        assets: block.assets.map((a) => (a.module === 'pos' ? { module: 'pos', data: codec.encode(schema, g) } : a)),
      };
      assert.throws(
        () => executeGenesis([new PoSModule(posConfig(chainID))], altered, chainID, new BlockState(EMPTY_STATE)),
        pattern,
        name,
      );
    }
  });
});

describe("the devnet genesis block from Kestrel's own modules", () => {
  it('reproduces the header stateRoot, eventRoot and validatorsHash', () => {
    const block = devnetGenesis();
    const state = new BlockState(EMPTY_STATE);
    // Klayr Core's registration order: auth, validators, token, fee, interoperability, pos, random, dynamicReward, legacy
    const modules = [
      new TokenModule(),
      new MainchainInteroperabilityModule(),
      new PoSModule(posConfig(chainID)),
      new RandomModule(),
      new DynamicRewardModule(),
      new LegacyModule(),
    ];
    const result = executeGenesis(modules, block, chainID, state);
    const entries = state.overlay.changes().map((c) => ({ key: stateSMTKey(c.key), value: stateSMTValue(c.value!) }));
    const stateRoot = new SparseMerkleTree(38, new InMemorySMTStore()).update(EMPTY_HASH, entries).root;
    assert.equal(stateRoot.toString('hex'), block.header.stateRoot.toString('hex'));
    assert.equal(computeEventRoot(result.events).toString('hex'), block.header.eventRoot.toString('hex'));
    const next = result.nextValidators!;
    assert.equal(
      computeValidatorsHash(next.validators, next.certificateThreshold).toString('hex'),
      block.header.validatorsHash.toString('hex'),
    );
  });
});

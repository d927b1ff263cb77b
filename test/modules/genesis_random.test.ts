import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeGenesis, processGenesisBlock } from '../../src/engine/genesis.js';
import { EMPTY_STATE } from '../../src/engine/state/state_db.js';
import type { Block } from '../../src/lib/chain/block.js';
import { computeAssetRoot, encodeBlock } from '../../src/lib/chain/block.js';
import { computeEventRoot } from '../../src/lib/chain/events.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { codec } from '../../src/lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix, stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { applicationModules } from '../../src/main/modules.js';
import { legacyAccountStoreSchema } from '../../src/modules/legacy/index.js';
import { devValidators } from '../helpers/devnet.js';
import type { GeneratedGenesis } from '../helpers/genesis_generator.js';
import { generateGenesis } from '../helpers/genesis_generator.js';
import { CHAIN_ID } from '../helpers/genesis_generator_values.js';
import { mutateGenesis } from '../helpers/genesis_mutate.js';
import type { KlayrGenesisResult } from '../helpers/klayr_genesis.js';
import { runKlayrGenesis } from '../helpers/klayr_genesis.js';
import { Rng } from '../helpers/random.js';

const BLOCKS = 300;
const SEED = Number(process.env.GENESIS_RANDOM_SEED ?? 20261123);
const LEGACY = computeStorePrefix('legacy');
// the devnet's 103 validator BLS keys with their proofs of possession: proofs are too costly to make per block
const blsPool = devValidators().map((v) => ({
  blsKey: Buffer.from(v.plain.blsKey, 'hex'),
  proofOfPossession: Buffer.from(v.plain.blsProofOfPossession, 'hex'),
}));
const baseConfig = loadConfig();

const configWith = (overrides: GeneratedGenesis['moduleOverrides']): ApplicationConfig => ({
  ...baseConfig,
  modules: {
    ...baseConfig.modules,
    ...Object.fromEntries(
      Object.entries(overrides).map(([name, values]) => [name, { ...baseConfig.modules[name], ...values }]),
    ),
  },
});

const hexMap = (entries: readonly { key: Buffer; value: Buffer }[]): Map<string, string> =>
  new Map(entries.map((e) => [e.key.toString('hex'), e.value.toString('hex')]));
const hexEvent = (e: {
  module: string;
  name: string;
  data: Buffer;
  topics: Buffer[];
  height: number;
  index: number;
}) => ({ ...e, data: e.data.toString('hex'), topics: e.topics.map((t) => t.toString('hex')) });
const stateRootOf = (entries: readonly { key: Buffer; value: Buffer }[]): Buffer =>
  new SparseMerkleTree(38, new InMemorySMTStore()).update(
    EMPTY_HASH,
    entries.map((e) => ({ key: stateSMTKey(e.key), value: stateSMTValue(e.value) })),
  ).root;

/** Klayr Core's legacy store for the asset's accounts (klayr-framework has no legacy module), written here independently of Kestrel's module. */
const legacyEntries = (accounts: GeneratedGenesis['legacyAccounts'] = []) =>
  accounts.map((a) => ({
    key: Buffer.concat([LEGACY, computeSubstorePrefix(0), a.address]),
    value: codec.encode(legacyAccountStoreSchema, { balance: a.balance }),
  }));

/** Everything klayr-framework's genesis (plus Klayr Core's legacy store) implies, to compare Kestrel's against. */
const expected = (klayr: KlayrGenesisResult, generated: GeneratedGenesis) => {
  const entries = [...klayr.entries, ...legacyEntries(generated.legacyAccounts)];
  return {
    entries: hexMap(entries),
    events: klayr.events.map(hexEvent),
    stateRoot: stateRootOf(entries),
    eventRoot: computeEventRoot(klayr.events),
    validatorsHash: computeValidatorsHash(klayr.nextValidators, klayr.certificateThreshold),
  };
};

const checkBlock = async (generated: GeneratedGenesis, label: string): Promise<void> => {
  const modules = applicationModules(configWith(generated.moduleOverrides));
  const ours = computeGenesis(generated.block, CHAIN_ID, modules, EMPTY_STATE);
  const klayr = await runKlayrGenesis(encodeBlock(generated.block), generated.moduleOverrides);
  const want = expected(klayr, generated);
  const changes = ours.state.overlay.changes().filter((c) => c.value !== undefined) as { key: Buffer; value: Buffer }[];
  assert.deepEqual(hexMap(changes), want.entries, `${label}: state entries`);
  assert.deepEqual(ours.events.map(hexEvent), want.events, `${label}: events`);
  assert.equal(ours.stateRoot.toString('hex'), want.stateRoot.toString('hex'), `${label}: state root`);
  assert.equal(ours.eventRoot.toString('hex'), want.eventRoot.toString('hex'), `${label}: event root`);
  assert.equal(ours.validatorsHash.toString('hex'), want.validatorsHash.toString('hex'), `${label}: validators hash`);
  const next = (vs: readonly { address: Buffer; bftWeight: bigint; blsKey: Buffer; generatorKey: Buffer }[]) =>
    vs.map((v) => [v.address.toString('hex'), v.bftWeight, v.blsKey.toString('hex'), v.generatorKey.toString('hex')]);
  assert.deepEqual(next(ours.nextValidators.validators), next(klayr.nextValidators), `${label}: next validators`);
  assert.equal(ours.nextValidators.certificateThreshold, klayr.certificateThreshold, `${label}: certificate threshold`);
  assert.equal(ours.nextValidators.precommitThreshold, klayr.precommitThreshold, `${label}: precommit threshold`);
  // the block with Klayr's roots in its header is accepted by Kestrel's genesis block processing
  const header = {
    ...generated.block.header,
    stateRoot: want.stateRoot,
    eventRoot: want.eventRoot,
    validatorsHash: want.validatorsHash,
  };
  processGenesisBlock({ ...generated.block, header }, CHAIN_ID, modules, EMPTY_STATE);
};

/** Every feature the generator must have produced across the blocks, so no field goes untested. */
const REQUIRED_FEATURES = [
  'auth:keys=0',
  'auth:keys=some',
  'auth:keys=64',
  'auth:multisignature',
  'auth:optional keys, no signatures',
  'auth:mandatory and optional',
  'auth:empty',
  'auth:no asset',
  'token:several locks',
  'token:max supply',
  'token:escrow of a foreign token',
  'token:foreign token user',
  'token:zero supply of an unheld token',
  'token:all tokens supported',
  'token:supported chains',
  'token:whole chain supported',
  'token:no asset',
  'pos:useInvalidBLSKey=true',
  'pos:useInvalidBLSKey=false',
  'pos:sharing coefficients',
  'pos:repeated coefficient token',
  'pos:banned validator',
  'pos:punished validator',
  'pos:pending unlocks',
  'pos:self-stake',
  'pos:stake coefficients',
  'pos:max stakes',
  'pos:maxNumberSentStakes config',
  'pos:hundreds of init rounds',
  'pos:no validators',
  'interop:no chains',
  'interop:status=0',
  'interop:status=1',
  'interop:status=2',
  'interop:terminated outbox',
  'interop:many chain validators',
  'legacy:no accounts',
];

describe("random genesis blocks: Kestrel's modules against klayr-framework's", () => {
  it(`${BLOCKS} generated genesis blocks give Klayr's state entries, events, roots and next validators (seed ${SEED})`, async () => {
    const features = new Map<string, number>();
    let multisig = 0;
    for (let i = 0; i < BLOCKS; i++) {
      const generated = generateGenesis(new Rng(SEED + i), blsPool);
      for (const f of generated.features) features.set(f, (features.get(f) ?? 0) + 1);
      if (generated.features.has('auth:multisignature')) multisig++;
      await checkBlock(generated, `block ${i} (seed ${SEED + i})`);
    }
    const missing = REQUIRED_FEATURES.filter((f) => !features.has(f));
    assert.deepEqual(missing, [], `features never generated: ${missing.join(', ')}`);
    assert.ok(multisig >= 30, `blocks with multisignature accounts: ${multisig}`);
  });
});

const MUTATIONS = 300;

/** Klayr's verdict on a block, or the error it gave. */
const klayrVerdict = async (generated: GeneratedGenesis): Promise<Error | undefined> => {
  try {
    await runKlayrGenesis(encodeBlock(generated.block), generated.moduleOverrides);
    return undefined;
  } catch (error) {
    return error as Error;
  }
};

describe('random genesis blocks with one field changed: Kestrel refuses exactly what klayr-framework refuses', () => {
  it(`${MUTATIONS} mutated genesis blocks: the same verdict, and when accepted the same state, events and roots (seed ${SEED})`, async () => {
    const verdicts = { refused: 0, accepted: 0 };
    for (let i = 0; i < MUTATIONS; i++) {
      const rng = new Rng(SEED + 100_000 + i);
      // klayr-framework has no legacy module to judge a legacy asset by
      const valid = generateGenesis(rng, blsPool);
      const { legacyAccounts: _, ...withoutLegacy } = valid;
      const { block, change } = mutateGenesis(rng, withAssets(valid.block, [], ['legacy']));
      const generated: GeneratedGenesis = { ...withoutLegacy, block };
      const label = `mutation ${i} (seed ${SEED + 100_000 + i}, ${change})`;
      let ours: Error | undefined;
      try {
        computeGenesis(block, CHAIN_ID, applicationModules(configWith(generated.moduleOverrides)), EMPTY_STATE);
      } catch (error) {
        ours = error as Error;
      }
      const theirs = await klayrVerdict(generated);
      assert.equal(
        ours === undefined,
        theirs === undefined,
        `${label}: Kestrel ${ours === undefined ? 'accepts' : `refuses (${ours.message})`}, Klayr ${theirs === undefined ? 'accepts' : `refuses (${theirs.message})`}`,
      );
      if (ours === undefined) {
        verdicts.accepted++;
        await checkBlock(generated, label);
      } else verdicts.refused++;
    }
    assert.ok(
      verdicts.refused >= MUTATIONS / 4 && verdicts.accepted >= MUTATIONS / 10,
      `verdicts: ${JSON.stringify(verdicts)}`,
    );
  });
});

const withAssets = (block: Block, extra: { module: string; data: Buffer }[], drop: string[] = []): Block => {
  const assets = [...block.assets.filter((a) => !drop.includes(a.module)), ...extra].sort((a, b) =>
    a.module < b.module ? -1 : 1,
  );
  return { ...block, header: { ...block.header, assetRoot: computeAssetRoot(assets) }, assets };
};

describe('genesis assets no registered module reads', () => {
  const generated = generateGenesis(new Rng(SEED - 1), blsPool);
  const modules = applicationModules(configWith(generated.moduleOverrides));

  it('refuses an asset for a module that is not registered, naming it (klayr-framework ignores it)', async () => {
    const block = withAssets(generated.block, [{ module: 'foo', data: Buffer.from('0801', 'hex') }]);
    assert.throws(
      () => computeGenesis(block, CHAIN_ID, modules, EMPTY_STATE),
      /Genesis block has an asset for module "foo", which is not registered\./,
    );
    assert.throws(
      () => processGenesisBlock(block, CHAIN_ID, modules, EMPTY_STATE),
      /module "foo", which is not registered/,
    );
    const klayr = await runKlayrGenesis(encodeBlock(block), generated.moduleOverrides);
    assert.ok(klayr.entries.length > 0);
  });

  it('accepts and ignores, as Klayr does, an asset for a registered module without a genesis asset (fee, validators)', async () => {
    const plain = computeGenesis(generated.block, CHAIN_ID, modules, EMPTY_STATE);
    const block = withAssets(generated.block, [
      { module: 'fee', data: Buffer.from('0801', 'hex') },
      { module: 'validators', data: Buffer.from('0802', 'hex') },
    ]);
    const ours = computeGenesis(block, CHAIN_ID, modules, EMPTY_STATE);
    assert.equal(ours.stateRoot.toString('hex'), plain.stateRoot.toString('hex'));
    assert.equal(ours.eventRoot.toString('hex'), plain.eventRoot.toString('hex'));
    const want = expected(await runKlayrGenesis(encodeBlock(block), generated.moduleOverrides), generated);
    assert.equal(ours.stateRoot.toString('hex'), want.stateRoot.toString('hex'));
  });

  it('refuses a genesis block without an interoperability asset, which klayr-framework cannot process either', async () => {
    const block = withAssets(generated.block, [], ['interoperability']);
    assert.throws(() => computeGenesis(block, CHAIN_ID, modules, EMPTY_STATE), /no interoperability asset/);
    await assert.rejects(() => runKlayrGenesis(encodeBlock(block), generated.moduleOverrides));
  });
});

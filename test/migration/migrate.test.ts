import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import '../helpers/klayr.js';
import type { SyntheticSnapshot, SyntheticSnapshotOptions } from '../../bench/migration_snapshot.js';
import { SNAPSHOT_TOKEN_ID, writeSyntheticSnapshot } from '../../bench/migration_snapshot.js';
import { processGenesisBlock } from '../../src/engine/genesis.js';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { StateMachine } from '../../src/engine/state_machine/state_machine.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID, encodeBlock } from '../../src/lib/chain/block.js';
import { codec, compile } from '../../src/lib/codec/index.js';
import { addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../src/lib/state/keys.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import type { ApplicationConfig } from '../../src/main/config/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import type { MigrationResult } from '../../src/migration/migrate.js';
import { migrateSnapshot } from '../../src/migration/migrate.js';
import { Snapshot } from '../../src/migration/snapshot.js';
import { genesisAuthStoreSchema } from '../../src/modules/auth/schemas.js';
import { chainAccountSchema, genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import { genesisLegacyStoreSchema, registerKeysParamsSchema } from '../../src/modules/legacy/schemas.js';
import { ADDRESS_LEGACY_RESERVE } from '../../src/modules/legacy/stores.js';
import { getValidatorAccount } from '../../src/modules/pos/method.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import { randomAssetSchema } from '../../src/modules/random/method.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { getValidatorsParams, INVALID_BLS_KEY } from '../../src/modules/validators/method.js';
import { validatorKeysSchema } from '../../src/modules/validators/schemas.js';
import { validatorsStore } from '../../src/modules/validators/stores.js';
import { openDatabases } from '../../src/storage/database.js';
import { devValidators } from '../helpers/devnet.js';
import { klayrCodec, klayrValidator } from '../helpers/klayr.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const klayrSchemas: Record<string, any> = {
  auth: require('klayr-framework/dist-node/modules/auth/schemas').genesisAuthStoreSchema,
  token: require('klayr-framework/dist-node/modules/token/schemas').genesisTokenStoreSchema,
  pos: require('klayr-framework/dist-node/modules/pos/schemas').genesisStoreSchema,
  interoperability: require('klayr-framework/dist-node/modules/interoperability/schemas').genesisInteroperabilitySchema,
};
/* eslint-enable @typescript-eslint/no-explicit-any */

const HEIGHT = 1030;
const temp = (): string => mkdtempSync(join(tmpdir(), 'kestrel-migration-'));
const baseConfig = (): ApplicationConfig => loadConfig({ dataPath: temp() });

const migrate = async (
  fixture: SyntheticSnapshot,
  options: { initValidators?: number; initRounds?: number; chainID?: Buffer; genesisTimeGap?: number } = {},
): Promise<MigrationResult & { config: (invalid: boolean) => ApplicationConfig }> => {
  const old = baseConfig();
  const configFor = (useInvalidBLSKey: boolean): ApplicationConfig => {
    const c = structuredClone(old);
    if (options.chainID !== undefined) c.genesis.chainID = options.chainID.toString('hex');
    c.modules = { ...c.modules, pos: { ...(c.modules.pos ?? {}), useInvalidBLSKey } };
    if (options.chainID !== undefined)
      c.modules = JSON.parse(
        JSON.stringify(c.modules).replaceAll('"04000000', `"${options.chainID.toString('hex')}`),
      ) as ApplicationConfig['modules'];
    return c;
  };
  const snapshot = Snapshot.open(fixture.dataPath);
  try {
    const oldModules = applicationModules(old);
    const result = await migrateSnapshot(snapshot, {
      ...options,
      modules: ({ useInvalidBLSKey }) => applicationModules(configFor(useInvalidBLSKey)),
      transactionProofs: (tx) => oldModules.flatMap((m) => m.transactionProofsOfPossession?.(tx) ?? []),
    });
    return { ...result, config: configFor };
  } finally {
    void snapshot.close();
  }
};

const asset = <T>(block: Block, module: string, schema: Parameters<typeof compile>[0]): T =>
  compile<T>(schema).decode(block.assets.find((a) => a.module === module)!.data);

const fixtureOf = (options: Partial<SyntheticSnapshotOptions> = {}): SyntheticSnapshot =>
  writeSyntheticSnapshot(temp(), {
    height: HEIGHT,
    accounts: 300,
    validators: 8,
    active: 6,
    banned: [7],
    legacyAccounts: 5,
    ...options,
  });

describe('migration: snapshot -> successor genesis block', () => {
  let fixture: SyntheticSnapshot;
  let result: Awaited<ReturnType<typeof migrate>>;
  before(async () => {
    fixture = fixtureOf();
    result = await migrate(fixture, { initValidators: 4, initRounds: 10 });
  });

  describe('the header (klayr-migrator createGenesisBlock)', () => {
    it("height is the snapshot height + 1, the previous block is the snapshot block, the timestamp the snapshot block's + 3600 s", () => {
      const { header } = result.block;
      assert.equal(header.height, HEIGHT + 1);
      assert.ok(header.previousBlockID.equals(fixture.blockID));
      assert.equal(header.timestamp, 1_700_000_000 + 3600);
      assert.equal(header.version, 0);
      assert.equal(result.summary.genesisBlockID, blockHeaderID(header).toString('hex'));
    });

    it('Kestrel accepts the block: its asset, state and event roots and validators hash check in genesis processing', () => {
      const processed = processGenesisBlock(
        result.block,
        Buffer.from('04000000', 'hex'),
        applicationModules(result.config(false)),
        EMPTY_STATE,
      );
      assert.equal(processed.stateRoot.toString('hex'), result.summary.stateRoot);
    });

    it("assets are sorted by module and decode with klayr-framework's genesis schemas (@klayr/codec, @klayr/validator)", () => {
      assert.deepEqual(
        result.block.assets.map((a) => a.module),
        ['auth', 'interoperability', 'legacy', 'pos', 'token'],
      );
      for (const a of result.block.assets) {
        if (klayrSchemas[a.module] === undefined) continue;
        const decoded = klayrCodec.codec.decode(klayrSchemas[a.module], a.data);
        klayrValidator.validator.validate(klayrSchemas[a.module], decoded);
        assert.ok(
          klayrCodec.codec.encode(klayrSchemas[a.module], decoded).equals(a.data),
          `${a.module} re-encodes byte for byte`,
        );
      }
    });

    it('is deterministic: a second migration of the same snapshot gives the same bytes', async () => {
      const again = await migrate(fixture, { initValidators: 4, initRounds: 10 });
      assert.ok(encodeBlock(again.block).equals(encodeBlock(result.block)));
    });
  });

  describe('auth', () => {
    it('every auth account, multisignature keys kept, nonces reset to 0', () => {
      const { authDataSubstore } = asset<{
        authDataSubstore: {
          address: Buffer;
          authAccount: { nonce: bigint; numberOfSignatures: number; mandatoryKeys: Buffer[] };
        }[];
      }>(result.block, 'auth', genesisAuthStoreSchema);
      assert.equal(authDataSubstore.length, 30);
      assert.equal(result.summary.authAccounts, 30);
      assert.ok(authDataSubstore.every((a) => a.authAccount.nonce === 0n));
      const multi = authDataSubstore.filter((a) => a.authAccount.numberOfSignatures === 2);
      assert.equal(multi.length, 3);
      assert.ok(multi.some((a) => a.address.equals(fixture.multisignature)));
      assert.ok(multi.every((a) => a.authAccount.mandatoryKeys.length === 2));
      assert.equal(result.summary.multisignatureAccounts, 3);
    });
  });

  describe('token', () => {
    const tokenAsset = (): GenesisTokenStore =>
      asset<GenesisTokenStore>(result.block, 'token', genesisTokenStoreSchema);
    it('one entry per account and token; stakes and pending unlocks returned to available balances; only the legacy reserve keeps its lock', () => {
      const { userSubstore } = tokenAsset();
      assert.equal(userSubstore.length, 300 + 8 + 1);
      for (const u of userSubstore) {
        if (u.address.equals(ADDRESS_LEGACY_RESERVE))
          assert.deepEqual(
            u.lockedBalances.map((l) => l.module),
            ['legacy'],
          );
        else assert.deepEqual(u.lockedBalances, []);
      }
      const sorted = [...userSubstore].sort(
        (a, b) => Buffer.compare(a.address, b.address) || Buffer.compare(a.tokenID, b.tokenID),
      );
      assert.deepEqual(
        userSubstore.map((u) => u.address.toString('hex')),
        sorted.map((u) => u.address.toString('hex')),
      );
    });

    it('total supply is the same before and after, and equals the supply store entry', () => {
      const { userSubstore, supplySubstore } = tokenAsset();
      const sum = userSubstore.reduce(
        (s, u) => s + u.availableBalance + u.lockedBalances.reduce((t, l) => t + l.amount, 0n),
        0n,
      );
      assert.equal(sum, fixture.supply);
      assert.deepEqual(supplySubstore, [{ tokenID: SNAPSHOT_TOKEN_ID, totalSupply: fixture.supply }]);
      assert.deepEqual(result.summary.totalSupply, { [SNAPSHOT_TOKEN_ID.toString('hex')]: fixture.supply.toString() });
    });

    it("a staker's unclaimed rewards, held locked by its validator, go to the staker (klayr-migrator processRewards)", () => {
      const { userSubstore } = tokenAsset();
      assert.ok(fixture.rewards.length > 0 && fixture.rewards.every((r) => r.amount > 0n));
      const stakerI = (staker: Buffer) => Number(fixture.stakers.findIndex((s) => s.equals(staker)) + 1);
      for (const { staker, amount } of fixture.rewards) {
        const i = stakerI(staker);
        const entry = userSubstore.find((u) => u.address.equals(staker))!;
        // the account's whole balance (1000 + i KLY) plus its reward
        assert.equal(entry.availableBalance, BigInt(1000 + i) * 100_000_000n + amount);
      }
      const validator0 = userSubstore.find((u) => u.address.equals(fixture.validators[0]!))!;
      // its balance at the snapshot was 5000 KLY, the stakers' rewards included
      assert.equal(
        validator0.availableBalance,
        5000n * 100_000_000n - fixture.rewards.reduce((s, r) => s + r.amount, 0n),
      );
      assert.equal(result.summary.unclaimedRewardsPaid, fixture.rewards.reduce((s, r) => s + r.amount, 0n).toString());
    });
  });

  describe('pos', () => {
    const posAsset = (block = result.block): GenesisPoSStore =>
      asset<GenesisPoSStore>(block, 'pos', genesisStoreSchema);
    it('every validator with name, keys, proof of possession (read from the old genesis block), commission and standing; no stakers', () => {
      const { validators, stakers } = posAsset();
      assert.equal(validators.length, 8);
      assert.deepEqual(stakers, []);
      assert.ok(
        validators.every(
          (v, i) =>
            v.name === `validator_${fixture.validators.findIndex((a) => a.equals(v.address))}` &&
            (i === 0 || Buffer.compare(validators[i - 1]!.address, v.address) < 0),
        ),
      );
      const seven = validators.find((v) => v.address.equals(fixture.validators[7]!))!;
      assert.equal(seven.isBanned, true, 'a banned validator stays banned');
      assert.deepEqual(seven.reportMisbehaviorHeights, [HEIGHT - 5]);
      const three = validators.find((v) => v.address.equals(fixture.validators[3]!))!;
      assert.equal(three.commission, 1003);
      assert.equal(three.isBanned, false);
      assert.ok(!three.blsKey.equals(INVALID_BLS_KEY) && three.proofOfPossession.length === 96);
    });

    it('the initial validators are the highest by active position at the snapshot (not banned), sorted by address; initRounds as given', () => {
      const { genesisData } = posAsset();
      // the active set is validators 7, 6, 5, 4, 3, 2 (highest first); 7 is banned
      const expected = [6, 5, 4, 3].map((i) => fixture.validators[i]!).sort(Buffer.compare);
      assert.deepEqual(
        genesisData.initValidators.map((a) => a.toString('hex')),
        expected.map((a) => a.toString('hex')),
      );
      assert.equal(genesisData.initRounds, 10);
    });

    it('after the active set, eligible validators by stake weight fill the initial set', async () => {
      const r = await migrate(fixture, { initValidators: 7 });
      // active 6,5,4,3,2 then eligible by weight: 0, 1
      assert.deepEqual(
        posAsset(r.block).genesisData.initValidators.map((a) => a.toString('hex')),
        [6, 5, 4, 3, 2, 0, 1]
          .map((i) => fixture.validators[i]!)
          .sort(Buffer.compare)
          .map((a) => a.toString('hex')),
      );
      assert.equal(posAsset(r.block).genesisData.initRounds, 587, "Klayr's bootstrap period by default");
    });

    it('validators without a registered BLS key: the successor registers every validator without one (useInvalidBLSKey) and bans them all until legacy registerKeys', async () => {
      const f = fixtureOf({ withoutBLSKey: [2] });
      const r = await migrate(f, { initValidators: 4 });
      assert.equal(r.summary.useInvalidBLSKey, true);
      assert.equal(r.summary.validatorsWithoutBLSKey, 1);
      const { validators } = posAsset(r.block);
      assert.ok(validators.every((v) => v.isBanned));
      assert.ok(validators.find((v) => v.address.equals(f.validators[2]!))!.blsKey.equals(INVALID_BLS_KEY));
      processGenesisBlock(r.block, Buffer.from('04000000', 'hex'), applicationModules(r.config(true)), EMPTY_STATE);
    });
  });

  describe('a validator without a BLS key on the successor', () => {
    it('stays banned until it registers its keys with legacy registerKeys, which lifts the ban', async () => {
      const f = fixtureOf({ withoutBLSKey: [2] });
      const r = await migrate(f, { initValidators: 4 });
      const config = r.config(true);
      const modules = applicationModules(config);
      const chainID = Buffer.from('04000000', 'hex');
      const state = new BlockState(EMPTY_STATE);
      executeGenesis(modules, r.block, chainID, state);
      const view = { store: (p: Buffer, sp: Buffer) => new SubStore(state, p, sp) };
      const address = f.validators[2]!;
      assert.equal(getValidatorAccount(view, address).isBanned, true);
      const dev = devValidators()[2]!;
      const base = {
        module: 'legacy',
        command: 'registerKeys',
        nonce: 0n,
        senderPublicKey: Buffer.from(dev.publicKey, 'hex'),
        params: codec.encode(registerKeysParamsSchema, {
          blsKey: Buffer.from(dev.plain.blsKey, 'hex'),
          proofOfPossession: Buffer.from(dev.plain.blsProofOfPossession, 'hex'),
          generatorKey: Buffer.from(dev.plain.generatorKey, 'hex'),
        }),
      };
      const tx = signTransaction(
        { ...base, fee: computeMinFee(base), signatures: [] },
        chainID,
        Buffer.from(dev.privateKey, 'hex'),
      );
      const validators = getValidatorsParams(view).validators;
      const timestamp = r.block.header.timestamp + config.genesis.blockTime;
      const block: Block = {
        header: {
          ...r.block.header,
          version: 2,
          height: r.block.header.height + 1,
          previousBlockID: blockHeaderID(r.block.header),
          timestamp,
          generatorAddress: validators[Math.floor(timestamp / config.genesis.blockTime) % validators.length]!.address,
        },
        transactions: [tx],
        assets: [{ module: 'random', data: codec.encode(randomAssetSchema, { seedReveal: Buffer.alloc(16, 1) }) }],
      };
      const executed = new StateMachine(modules).executeBlock(block, chainID, state);
      assert.deepEqual(executed.results, [1]);
      assert.equal(getValidatorAccount(view, address).isBanned, false);
      assert.ok(
        validatorsStore(view, 'validatorKeys')
          .getWithSchema<{ blsKey: Buffer }>(address, validatorKeysSchema)!
          .blsKey.equals(Buffer.from(dev.plain.blsKey, 'hex')),
      );
      assert.equal(getValidatorAccount(view, f.validators[3]!).isBanned, true, 'the others stay banned');
    });
  });

  describe('bootstrap finality', () => {
    it("51 initial validators need 35 for finality: Kestrel's BFT sets the precommit threshold floor(2n/3)+1", async () => {
      const f = fixtureOf({ validators: 56, active: 53, banned: [55] });
      const r = await migrate(f);
      assert.equal(r.summary.initValidators, 51);
      assert.equal(r.summary.precommitThreshold, 35);
      assert.equal(Math.floor((2 * 51) / 3) + 1, 35);
      assert.equal(result.summary.precommitThreshold, Math.floor((2 * 4) / 3) + 1);
    });
  });

  describe('interoperability and legacy', () => {
    it("the own chain name is carried, its nonce reset (Klayr requires 0 without chains); the legacy accounts too, backed by the reserve's kept lock", () => {
      const interop = asset<{ ownChainName: string; ownChainNonce: bigint; chainInfos: unknown[] }>(
        result.block,
        'interoperability',
        genesisInteroperabilitySchema,
      );
      assert.equal(interop.ownChainName, 'klayr_mainchain');
      assert.equal(interop.ownChainNonce, 0n);
      assert.deepEqual(interop.chainInfos, []);
      const legacy = asset<{ accounts: { balance: bigint }[] }>(result.block, 'legacy', genesisLegacyStoreSchema);
      assert.equal(legacy.accounts.length, 5);
      assert.equal(result.summary.legacyAccounts, 5);
    });

    it('a snapshot without legacy accounts has no legacy asset', async () => {
      const r = await migrate(fixtureOf({ legacyAccounts: 0 }), { initValidators: 4 });
      assert.ok(!r.block.assets.some((a) => a.module === 'legacy'));
    });
  });

  describe('a new chain ID', () => {
    it("the old chain's tokens become the successor's (same local ID); the block processes on the new chain", async () => {
      const chainID = Buffer.from('02000000', 'hex');
      const r = await migrate(fixture, { initValidators: 4, chainID });
      const { userSubstore, supplySubstore } = asset<GenesisTokenStore>(r.block, 'token', genesisTokenStoreSchema);
      const newToken = Buffer.concat([chainID, Buffer.alloc(4)]);
      assert.ok(userSubstore.every((u) => u.tokenID.equals(newToken)));
      assert.ok(supplySubstore[0]!.tokenID.equals(newToken));
      processGenesisBlock(r.block, chainID, applicationModules(r.config(false)), EMPTY_STATE);
    });
  });

  describe('forgingStatus.json', () => {
    it('each validator the old node holds keys for or generated with: address, height, maxHeightPrevoted, maxHeightGenerated', () => {
      const byAddress = new Map(result.forgingStatus.map((s) => [s.address, s]));
      assert.equal(result.forgingStatus.length, 2);
      assert.deepEqual(byAddress.get(addressToKlayr32(fixture.validators[0]!)), {
        address: addressToKlayr32(fixture.validators[0]!),
        height: HEIGHT,
        maxHeightPrevoted: HEIGHT - 2,
        maxHeightGenerated: HEIGHT - 3,
      });
      assert.deepEqual(byAddress.get(addressToKlayr32(fixture.validators[1]!)), {
        address: addressToKlayr32(fixture.validators[1]!),
        height: 0,
        maxHeightPrevoted: 0,
        maxHeightGenerated: 0,
      });
    });
  });

  describe('more rules', () => {
    it("every staker's stake and pending unlock return to its available balance (no reward: its whole balance)", () => {
      const { userSubstore } = asset<GenesisTokenStore>(result.block, 'token', genesisTokenStoreSchema);
      const rewarded = new Set(fixture.rewards.map((r) => r.staker.toString('hex')));
      let checked = 0;
      fixture.stakers.forEach((staker, index) => {
        if (rewarded.has(staker.toString('hex'))) return;
        const entry = userSubstore.find((u) => u.address.equals(staker))!;
        assert.equal(entry.availableBalance, BigInt(1000 + index + 1) * 100_000_000n);
        checked += 1;
      });
      assert.ok(checked > 40);
      assert.equal(result.summary.stakersReturned, fixture.stakers.length);
    });

    it("a new chain ID also turns the validators' sharing coefficient token IDs into the successor's", async () => {
      const chainID = Buffer.from('02000000', 'hex');
      const r = await migrate(fixture, { initValidators: 4, chainID });
      const { validators } = asset<GenesisPoSStore>(r.block, 'pos', genesisStoreSchema);
      assert.ok(
        validators.every((v) =>
          v.sharingCoefficients.every((c) => c.tokenID.equals(Buffer.concat([chainID, Buffer.alloc(4)]))),
        ),
      );
    });

    it('no active validator that is not banned: refused (the successor would have no initial validators)', async () => {
      const f = fixtureOf({ validators: 3, active: 3, banned: [0, 1, 2] });
      await assert.rejects(migrate(f), /no active validator that is not banned/);
    });

    it("the genesis time gap is configurable (0: the snapshot block's own timestamp)", async () => {
      const r = await migrate(fixture, { initValidators: 4, genesisTimeGap: 0 });
      assert.equal(r.block.header.timestamp, 1_700_000_000);
    });

    it('a snapshot with a registered sidechain is refused: cross-chain state is not migrated', async () => {
      const f = fixtureOf();
      const dbs = openDatabases(join(f.dataPath, 'backup'));
      const chainAccount = compile(chainAccountSchema).encode({
        name: 'sidechain',
        lastCertificate: { height: 1, timestamp: 1, stateRoot: Buffer.alloc(32), validatorsHash: Buffer.alloc(32) },
        status: 1,
      });
      await dbs.state.put(
        Buffer.concat([
          computeStorePrefix('interoperability'),
          computeSubstorePrefix(1),
          Buffer.from('04000001', 'hex'),
        ]),
        chainAccount,
      );
      await dbs.root.close();
      await assert.rejects(migrate(f), /registered chain \(04000001\): migrating cross-chain state is not supported/);
    });
  });

  describe('bad snapshots', () => {
    it('no backup under the data path: a clear error', () => {
      assert.throws(() => Snapshot.open(temp()), /No backup under/);
    });

    it('a manifest naming a block the backup does not hold: refused', () => {
      const f = fixtureOf();
      const file = join(f.dataPath, 'backup', 'manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { blockID: string };
      writeFileSync(file, JSON.stringify({ ...manifest, blockID: 'ab'.repeat(32) }));
      assert.throws(() => Snapshot.open(f.dataPath), /does not hold block abab/);
    });

    it('a backup without its manifest (a copy that did not finish): refused', () => {
      const f = fixtureOf();
      rmSync(join(f.dataPath, 'backup', 'manifest.json'));
      assert.throws(() => Snapshot.open(f.dataPath), /incomplete/);
    });

    it("a manifest whose height is not the database's: refused", () => {
      const f = fixtureOf();
      const file = join(f.dataPath, 'backup', 'manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { height: number };
      writeFileSync(file, JSON.stringify({ ...manifest, height: HEIGHT + 1 }));
      assert.throws(() => Snapshot.open(f.dataPath), /does not match its manifest/);
    });
  });
});

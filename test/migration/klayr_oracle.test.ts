import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import '../helpers/klayr.js';
import { writeSyntheticSnapshot } from '../../bench/migration_snapshot.js';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { computeEventRoot } from '../../src/lib/chain/events.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { codec } from '../../src/lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix, stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { migrateSnapshot } from '../../src/migration/migrate.js';
import { Snapshot } from '../../src/migration/snapshot.js';
import { genesisLegacyStoreSchema } from '../../src/modules/legacy/schemas.js';
import { legacyAccountStoreSchema } from '../../src/modules/legacy/stores.js';
import { runKlayrGenesis } from '../helpers/klayr_genesis.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'kestrel-migration-oracle-'));

const migrated = async (legacyAccounts: number, withoutBLSKey: number[] = []): Promise<Block> => {
  const fixture = writeSyntheticSnapshot(temp(), {
    height: 2000,
    accounts: 200,
    validators: 56,
    active: 53,
    banned: [55],
    legacyAccounts,
    withoutBLSKey,
  });
  const config = loadConfig({ dataPath: temp() });
  if (withoutBLSKey.length > 0) config.modules.pos = { ...config.modules.pos, useInvalidBLSKey: true };
  const modules = applicationModules(config);
  const snapshot = Snapshot.open(fixture.dataPath);
  try {
    return (
      await migrateSnapshot(snapshot, {
        modules: () => modules,
        transactionProofs: (tx) => modules.flatMap((m) => m.transactionProofsOfPossession?.(tx) ?? []),
      })
    ).block;
  } finally {
    await snapshot.close();
  }
};

/** Klayr Core's legacy store entries for the block's legacy asset (the module is Klayr Core's, not klayr-framework's). */
const legacyEntries = (block: Block): { key: Buffer; value: Buffer }[] => {
  const asset = block.assets.find((a) => a.module === 'legacy');
  if (asset === undefined) return [];
  const { accounts } = codec.decode<{ accounts: { address: Buffer; balance: bigint }[] }>(
    genesisLegacyStoreSchema,
    asset.data,
  );
  return accounts.map((a) => ({
    key: Buffer.concat([computeStorePrefix('legacy'), computeSubstorePrefix(0), a.address]),
    value: codec.encode(legacyAccountStoreSchema, { balance: a.balance }),
  }));
};

describe("the migrated genesis block processed by klayr-framework's own modules (oracle)", () => {
  for (const legacy of [0, 20]) {
    it(`Klayr accepts it and reproduces its state root, event root and validators hash; 35 of the 51 initial validators finalize (${legacy} legacy accounts)`, async () => {
      const block = await migrated(legacy);
      const klayr = await runKlayrGenesis(encodeBlock(block));
      const entries = [...klayr.entries, ...legacyEntries(block)];
      const root = new SparseMerkleTree(38, new InMemorySMTStore()).update(
        EMPTY_HASH,
        entries.map((e) => ({ key: stateSMTKey(e.key), value: stateSMTValue(e.value) })),
      ).root;
      assert.equal(root.toString('hex'), block.header.stateRoot.toString('hex'));
      assert.equal(computeEventRoot(klayr.events).toString('hex'), block.header.eventRoot.toString('hex'));
      assert.equal(
        computeValidatorsHash(klayr.nextValidators, klayr.certificateThreshold).toString('hex'),
        block.header.validatorsHash.toString('hex'),
      );
      assert.equal(klayr.nextValidators.length, 51);
      assert.equal(klayr.precommitThreshold, 35n);
      assert.equal(klayr.certificateThreshold, 35n);
    });
  }

  it('validators without a BLS key: with useInvalidBLSKey, as the successor config sets it, Klayr reproduces the roots too; every validator is banned', async () => {
    const block = await migrated(0, [4]);
    const klayr = await runKlayrGenesis(encodeBlock(block), { pos: { useInvalidBLSKey: true } });
    const root = new SparseMerkleTree(38, new InMemorySMTStore()).update(
      EMPTY_HASH,
      klayr.entries.map((e) => ({ key: stateSMTKey(e.key), value: stateSMTValue(e.value) })),
    ).root;
    assert.equal(root.toString('hex'), block.header.stateRoot.toString('hex'));
    assert.equal(computeEventRoot(klayr.events).toString('hex'), block.header.eventRoot.toString('hex'));
    assert.equal(
      computeValidatorsHash(klayr.nextValidators, klayr.certificateThreshold).toString('hex'),
      block.header.validatorsHash.toString('hex'),
    );
    const all = await klayr.modules.pos.endpoint.getAllValidators(klayr.endpointContext({}));
    assert.ok(all.validators.length === 56 && all.validators.every((v: { isBanned: boolean }) => v.isBanned));
  });
});

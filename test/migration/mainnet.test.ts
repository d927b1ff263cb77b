import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { processGenesisBlock } from '../../src/engine/genesis.js';
import { EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { blockHeaderID, encodeBlock } from '../../src/lib/chain/block.js';
import { compile } from '../../src/lib/codec/index.js';
import { readGenesisBlock } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { migrateSnapshot } from '../../src/migration/migrate.js';
import { Snapshot } from '../../src/migration/snapshot.js';
import type { AuthAccount } from '../../src/modules/auth/schemas.js';
import { genesisAuthStoreSchema } from '../../src/modules/auth/schemas.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { openDatabases } from '../../src/storage/database.js';
import { writeCommittedState } from '../../src/storage/state_roots.js';
import { TABLES, tableHeightKey, tableKey } from '../../src/storage/tables.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'kestrel-migration-mainnet-'));

describe("migrating the state of Klayr's real mainnet genesis (76,424 accounts, 3,515 multisignature, 172 validators, 2 banned)", () => {
  it('every auth account and balance is carried, the supply equal, banned validators stay banned, the 51 initial validators are the active set; Kestrel accepts the block', async () => {
    const config = loadConfig({ network: 'mainnet', dataPath: temp() });
    const modules = applicationModules(config);
    const chainID = Buffer.from(config.genesis.chainID, 'hex');
    const old = readGenesisBlock(config);
    // the snapshot: the mainnet's state right after its genesis block, in a backup of Kestrel's layout
    const processed = processGenesisBlock(old, chainID, modules, EMPTY_STATE);
    const dataPath = temp();
    mkdirSync(join(dataPath, 'backup'), { recursive: true });
    const dbs = openDatabases(join(dataPath, 'backup'));
    const id = blockHeaderID(old.header);
    dbs.root.transactionSync(() => {
      for (const { key, value } of processed.state.overlay.changes())
        if (value !== undefined) dbs.state.putSync(key, value);
      dbs.blocks.putSync(tableHeightKey(TABLES.blockIDsByHeight, 0), id);
      dbs.blocks.putSync(tableKey(TABLES.blocksByID, id), encodeBlock(old));
      writeCommittedState(dbs, { height: 0, root: processed.stateRoot, rootVersion: 0 });
    });
    await dbs.root.close();
    writeFileSync(
      join(dataPath, 'backup', 'manifest.json'),
      JSON.stringify({
        height: 0,
        blockID: id.toString('hex'),
        stateRoot: processed.stateRoot.toString('hex'),
        chainID: config.genesis.chainID,
        createdAt: new Date(0).toISOString(),
      }),
    );

    const snapshot = Snapshot.open(dataPath);
    const { block, summary } = await migrateSnapshot(snapshot, {
      modules: () => modules,
      transactionProofs: () => [],
    }).finally(() => snapshot.close());
    processGenesisBlock(block, chainID, modules, EMPTY_STATE);

    const decode = <T>(b: typeof block, module: string, schema: Parameters<typeof compile>[0]): T =>
      compile<T>(schema).decode(b.assets.find((a) => a.module === module)!.data);
    const oldAuth = decode<{ authDataSubstore: { address: Buffer; authAccount: AuthAccount }[] }>(
      old,
      'auth',
      genesisAuthStoreSchema,
    ).authDataSubstore;
    const newAuth = decode<{ authDataSubstore: { address: Buffer; authAccount: AuthAccount }[] }>(
      block,
      'auth',
      genesisAuthStoreSchema,
    ).authDataSubstore;
    assert.equal(newAuth.length, 76_424);
    assert.deepEqual(newAuth, oldAuth, 'the mainnet genesis already has nonces 0: the accounts are carried unchanged');
    assert.equal(summary.multisignatureAccounts, 3_515);

    const oldToken = decode<GenesisTokenStore>(old, 'token', genesisTokenStoreSchema);
    const newToken = decode<GenesisTokenStore>(block, 'token', genesisTokenStoreSchema);
    assert.deepEqual(newToken.userSubstore, oldToken.userSubstore);
    assert.deepEqual(newToken.supplySubstore, oldToken.supplySubstore);
    assert.equal(summary.totalSupply['0000000000000000'], '18324612718040975');

    const oldPoS = decode<GenesisPoSStore>(old, 'pos', genesisStoreSchema);
    const newPoS = decode<GenesisPoSStore>(block, 'pos', genesisStoreSchema);
    assert.equal(newPoS.validators.length, 172);
    assert.deepEqual(
      newPoS.validators,
      [...oldPoS.validators].sort((a, b) => Buffer.compare(a.address, b.address)),
      'name, keys, proofs of possession (from the old genesis block), commission, standing; in address order',
    );
    assert.equal(newPoS.validators.filter((v) => v.isBanned).length, 2);
    assert.deepEqual(
      newPoS.genesisData.initValidators,
      [...oldPoS.genesisData.initValidators].sort(Buffer.compare),
      "the active set at the snapshot: the mainnet's own 51 initial validators",
    );
    assert.equal(newPoS.genesisData.initRounds, 587);
    assert.equal(summary.precommitThreshold, 35);
    assert.equal(block.header.height, 1);
    assert.ok(block.header.previousBlockID.equals(id));
  });
});

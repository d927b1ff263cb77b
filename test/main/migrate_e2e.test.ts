import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import '../helpers/klayr.js';
import { blockHeaderID, decodeBlock } from '../../src/lib/chain/block.js';
import { compile } from '../../src/lib/codec/index.js';
import { addressToKlayr32, klayr32ToAddress } from '../../src/lib/crypto/address.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../src/lib/state/keys.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import type { AuthAccount } from '../../src/modules/auth/schemas.js';
import { authAccountSchema } from '../../src/modules/auth/schemas.js';
import { ADDRESS_LEGACY_RESERVE } from '../../src/modules/legacy/stores.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import type { UserAccount } from '../../src/modules/token/schemas.js';
import { supplyStoreSchema, userStoreSchema } from '../../src/modules/token/schemas.js';
import { connectIPC } from '../../src/rpc/client.js';
import { openBackup } from '../../src/storage/backup.js';
import { runCLI } from '../helpers/cli.js';
import { devValidators } from '../helpers/devnet.js';
import { localP2P } from '../helpers/local_p2p.js';
import { FAST_POS_WINDOWS, startNodeProcess, waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';
import { account, funder, KLY, registerMultisignatureTx, stakeTx, transferTx } from '../migration/old_chain.js';

const SNAPSHOT_HEIGHT = 6;
const INIT_VALIDATORS = 4;

const userCodec = compile<UserAccount>(userStoreSchema);
const authCodec = compile<AuthAccount>(authAccountSchema);

const cli = async (...args: string[]): Promise<string> => {
  const { code, stdout, stderr } = await runCLI(...args);
  assert.equal(code, 0, `kestrel ${args.join(' ')} failed: ${stderr}`);
  return stdout;
};

/** Every entry of a module substore in the backup's state: key (after the prefix) -> value. */
const backupEntries = <T>(
  dataPath: string,
  module: string,
  substore: number,
  decode: (b: Buffer) => T,
): Map<string, T> => {
  const { dbs, close } = openBackup(dataPath);
  try {
    const prefix = Buffer.concat([computeStorePrefix(module), computeSubstorePrefix(substore)]);
    const out = new Map<string, T>();
    for (const { key, value } of dbs.state.getRange({
      start: prefix,
      end: Buffer.concat([prefix, Buffer.alloc(40, 255)]),
    }))
      out.set(key.subarray(prefix.length).toString('hex'), decode(value));
    return out;
  } finally {
    void close();
  }
};

describe('kestrel migrate, end to end: old devnet A -> snapshot -> successor genesis -> successor B', () => {
  it("B starts from the migrated genesis, the validators enable generation over IPC, B finalizes; balances (stakes returned) and auth accounts equal A at the snapshot; A's later blocks are not in B; a second run is byte-identical", {
    timeout: 240_000,
  }, async () => {
    // A: the fast devnet with the backup height set
    const aPath = tempDataPath();
    const aConfigFile = join(tempDataPath(), 'old.json');
    writeFileSync(
      aConfigFile,
      JSON.stringify({
        genesis: { blockTime: 3 },
        modules: { pos: FAST_POS_WINDOWS },
        system: { backup: { height: SNAPSHOT_HEIGHT } },
      }),
    );
    const a = new KestrelNode(
      await localP2P(loadConfig({ dataPath: aPath, config: aConfigFile, apiPort: await freePort() })),
      pino({ level: 'silent' }),
    );
    await a.start();
    const callA = async (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
      (await a.registry.get(method)!.handler({ params, transport: 'ipc' })) as Record<string, unknown>;
    const heightA = async () => (await callA('system_getNodeInfo')).height as number;
    const aBlocksAfter: string[] = [];
    let aStopped = false;
    try {
      const rich = await funder();
      const multisig = await account('kestrel migration multisignature owner');
      const member = await account('kestrel migration multisignature member');
      const plain = await account('kestrel migration plain account');
      const validator = devValidators()[1]!.address;
      const post = (transaction: string) => callA('txpool_postTransaction', { transaction });
      await post(transferTx(rich, 0n, multisig.address, 100n * KLY));
      await post(transferTx(rich, 1n, plain.address, 25n * KLY));
      await post(stakeTx(rich, 2n, klayr32ToAddress(validator), 300n * KLY));
      await waitUntil(
        'the multisignature owner is funded',
        async () =>
          BigInt(
            (
              (await callA('token_getBalance', { address: multisig.klayr32, tokenID: '0400000000000000' }).catch(
                () => ({ availableBalance: '0' }),
              )) as { availableBalance: string }
            ).availableBalance,
          ) > 0n,
        60_000,
      );
      await post(registerMultisignatureTx(multisig, member, 0n));
      await waitUntil(
        'the multisignature registration is included',
        async () =>
          ((await callA('auth_getAuthAccount', { address: multisig.klayr32 })) as { numberOfSignatures: number })
            .numberOfSignatures === 2,
        60_000,
      );
      assert.ok((await heightA()) < SNAPSHOT_HEIGHT, 'the transactions landed before the snapshot height');
      const staked = (await callA('pos_getStaker', { address: rich.klayr32 })) as { stakes: { amount: string }[] };
      assert.equal(staked.stakes[0]!.amount, (300n * KLY).toString());

      // the snapshot, then migrate while A still runs
      await waitUntil('A passed the snapshot height', async () => (await heightA()) >= SNAPSHOT_HEIGHT + 2, 60_000);
      for (const h of [SNAPSHOT_HEIGHT + 1, SNAPSHOT_HEIGHT + 2])
        aBlocksAfter.push(((await callA('chain_getBlockByHeight', { height: h })).header as { id: string }).id);
      const output = join(tempDataPath(), 'out');
      const bPath = tempDataPath();
      const migrateArgs = [
        'migrate',
        '--snapshot-height',
        String(SNAPSHOT_HEIGHT),
        '-d',
        aPath,
        '-c',
        aConfigFile,
        '--successor-data-path',
        bPath,
        '--auto-migrate-config',
        '--init-validators',
        String(INIT_VALIDATORS),
        '--genesis-time-gap',
        '0',
      ];
      const again = join(tempDataPath(), 'again');
      // the second run at once, over the same snapshot: the same bytes
      const [summary] = await Promise.all([
        cli(...migrateArgs, '--output', output),
        cli(...migrateArgs, '--output', again),
      ]);
      assert.match(summary, /finality needs 3 of 4/);
      const snapshotBlockID = (
        (await callA('chain_getBlockByHeight', { height: SNAPSHOT_HEIGHT })).header as { id: string }
      ).id;
      await a.stop();
      aStopped = true;

      // the genesis block continues A at the snapshot: height H + 1 after A's block H
      const blob = readFileSync(join(output, 'genesis_block.blob'));
      const genesis = decodeBlock(blob);
      assert.equal(genesis.header.height, SNAPSHOT_HEIGHT + 1);
      assert.equal(genesis.header.previousBlockID.toString('hex'), snapshotBlockID);
      assert.ok(summary.includes(blockHeaderID(genesis.header).toString('hex')));

      assert.ok(
        readFileSync(join(again, 'genesis_block.blob')).equals(blob),
        'a second migration gives a byte-identical genesis block',
      );

      // B: the migrated config without the old node's key file; the validators bring their keys over IPC
      const config = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as Record<string, unknown>;
      assert.equal((config.system as { dataPath: string }).dataPath, bPath);
      // no keys at all: the devnet config saved under B's data path (--overwrite-config, -n devnet) names the dev
      // validators' key file, which a -c layer without generator keys would leave in force
      const noKeys = join(output, 'no-keys.json');
      writeFileSync(noKeys, JSON.stringify({ keys: [] }));
      config.generator = { keys: { fromFile: noKeys } };
      writeFileSync(join(output, 'config.json'), JSON.stringify(config));
      const b = await startNodeProcess(
        bPath,
        await freePort(),
        '-c',
        join(output, 'config.json'),
        '--overwrite-config',
        '--api-ipc',
        '--api-http',
      );
      try {
        await waitUntil(
          'B answers over IPC',
          async () => {
            try {
              const client = await connectIPC(bPath);
              await client.invoke('system_getNodeInfo');
              await client.close();
              return true;
            } catch {
              return false;
            }
          },
          90_000,
        );
        const client = await connectIPC(bPath);
        try {
          const info = (await client.invoke('system_getNodeInfo')) as { genesisHeight: number; height: number };
          assert.equal(info.genesisHeight, SNAPSHOT_HEIGHT + 1);

          // the validators' procedure for the initial validators: keys:import, random_setHashOnion (address only), generator_setStatus, generator:enable --use-status-value
          const { genesisData } = compile<GenesisPoSStore>(genesisStoreSchema).decode(
            genesis.assets.find((x) => x.module === 'pos')!.data,
          );
          const initial = genesisData.initValidators.map((address) => addressToKlayr32(address));
          assert.equal(initial.length, INIT_VALIDATORS);
          const bft = (await client.invoke('consensus_getBFTParameters', { height: SNAPSHOT_HEIGHT + 2 })) as {
            validators: { address: string }[];
            precommitThreshold: string;
          };
          assert.deepEqual(
            bft.validators.map((v) => v.address).sort(),
            [...initial].sort(),
            "B's validator set is the initial validators",
          );
          assert.equal(String(bft.precommitThreshold), '3', 'finality needs floor(2n/3)+1 of them');
          const keysFile = join(output, 'validator-keys.json');
          writeFileSync(keysFile, JSON.stringify({ keys: devValidators().filter((v) => initial.includes(v.address)) }));
          await cli('keys:import', '--file-path', keysFile, '--plain', '-d', bPath);
          const statuses = JSON.parse(readFileSync(join(output, 'forgingStatus.json'), 'utf8')) as {
            address: string;
            height: number;
            maxHeightPrevoted: number;
            maxHeightGenerated: number;
          }[];
          for (const address of initial) {
            await client.invoke('random_setHashOnion', { address });
            const status = statuses.find((s) => s.address === address) ?? {
              address,
              height: 0,
              maxHeightPrevoted: 0,
              maxHeightGenerated: 0,
            };
            await client.invoke('generator_setStatus', { ...status });
            await cli('generator:enable', address, '--use-status-value', '--password', 'unused', '-d', bPath);
          }

          // B generates on top of the genesis and finalizes
          await waitUntil(
            'B finalized a block after its genesis',
            async () =>
              ((await client.invoke('system_getNodeInfo')) as { finalizedHeight: number }).finalizedHeight >
              SNAPSHOT_HEIGHT + 1,
            90_000,
          );

          // A's blocks after the snapshot are not in B
          for (const id of aBlocksAfter) await assert.rejects(client.invoke('chain_getBlockByID', { id }));

          // every balance of A at the snapshot (locked amounts returned) is B's; every auth account is B's with nonce 0
          const users = backupEntries(aPath, 'token', 0, (b) => userCodec.decode(b));
          assert.ok(users.size > 100);
          for (const [key, user] of users) {
            const address = addressToKlayr32(Buffer.from(key.slice(0, 40), 'hex'));
            const tokenID = key.slice(40);
            const balance = (await client.invoke('token_getBalance', { address, tokenID })) as {
              availableBalance: string;
              lockedBalances: { amount: string }[];
            };
            const locked = user.lockedBalances.reduce((s, l) => s + l.amount, 0n);
            if (Buffer.from(key.slice(0, 40), 'hex').equals(ADDRESS_LEGACY_RESERVE)) {
              assert.equal(
                BigInt(balance.availableBalance),
                user.availableBalance,
                'the legacy reserve keeps its lock',
              );
              assert.equal(
                balance.lockedBalances.reduce((s, l) => s + BigInt(l.amount), 0n),
                locked,
              );
            } else {
              assert.equal(
                BigInt(balance.availableBalance),
                user.availableBalance + locked,
                `${address}: available + locked at the snapshot`,
              );
              assert.deepEqual(balance.lockedBalances, []);
            }
          }
          const supplies = backupEntries(aPath, 'token', 1, (b) =>
            compile<{ totalSupply: bigint }>(supplyStoreSchema).decode(b),
          );
          const { totalSupply } = (await client.invoke('token_getTotalSupply')) as {
            totalSupply: { tokenID: string; totalSupply: string }[];
          };
          assert.deepEqual(
            totalSupply,
            [...supplies].map(([tokenID, s]) => ({ tokenID, totalSupply: s.totalSupply.toString() })),
            "the total supply is A's at the snapshot",
          );
          const richAtSnapshot = users.get(`${rich.address.toString('hex')}0400000000000000`)!;
          assert.equal(
            richAtSnapshot.lockedBalances.find((l) => l.module === 'pos')?.amount,
            300n * KLY,
            'the stake was locked at the snapshot',
          );
          const auths = backupEntries(aPath, 'auth', 0, (b) => authCodec.decode(b));
          assert.ok(auths.has(multisig.address.toString('hex')));
          for (const [key, auth] of auths) {
            const b32 = addressToKlayr32(Buffer.from(key, 'hex'));
            const got = (await client.invoke('auth_getAuthAccount', { address: b32 })) as {
              nonce: string;
              numberOfSignatures: number;
              mandatoryKeys: string[];
              optionalKeys: string[];
            };
            assert.equal(got.numberOfSignatures, auth.numberOfSignatures);
            assert.deepEqual(
              got.mandatoryKeys,
              auth.mandatoryKeys.map((k) => k.toString('hex')),
            );
            assert.deepEqual(
              got.optionalKeys,
              auth.optionalKeys.map((k) => k.toString('hex')),
            );
            assert.equal(got.nonce, '0');
          }
          const staker = (await client
            .invoke('pos_getStaker', { address: rich.klayr32 })
            .catch(() => ({ stakes: [] }))) as { stakes: unknown[] };
          assert.deepEqual(staker.stakes, [], 'no stakers on the successor');
        } finally {
          await client.close();
        }
      } finally {
        const { code } = await b.stop();
        assert.equal(code, 0, b.stderr().slice(-2000));
      }
    } finally {
      // a second stop would close A's database twice
      if (!aStopped) await a.stop();
    }
  });
});

/**
 * A synthetic node snapshot (`<dataPath>/backup`, Kestrel's layout and manifest) for the migration's
 * tests and benchmark: accounts with balances (some locked by stakes), multisignature accounts,
 * validators with the devnet's real keys and proofs of possession (in a genesis block at height 0),
 * stakers with unclaimed rewards, an active set, eligible validators, legacy accounts and the
 * generator's records.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { putGeneratedInfoSync } from '../src/engine/generator/generated_info.js';
import { unsignedGenesisHeader } from '../src/engine/genesis.js';
import type { Block } from '../src/lib/chain/block.js';
import { blockHeaderID, encodeBlock } from '../src/lib/chain/block.js';
import { compile } from '../src/lib/codec/index.js';
import { klayr32ToAddress } from '../src/lib/crypto/address.js';
import { sha256 } from '../src/lib/crypto/hash.js';
import { q96, q96ToBytes } from '../src/lib/math/q96.js';
import { computeStorePrefix, computeSubstorePrefix } from '../src/lib/state/keys.js';
import { authAccountSchema } from '../src/modules/auth/schemas.js';
import { ownChainAccountSchema } from '../src/modules/interoperability/schemas.js';
import { ADDRESS_LEGACY_RESERVE, legacyAccountStoreSchema } from '../src/modules/legacy/stores.js';
import { calculateStakeRewards } from '../src/modules/pos/method.js';
import type { GenesisPoSStore } from '../src/modules/pos/schemas.js';
import {
  eligibleValidatorsStoreSchema,
  genesisStoreSchema,
  stakerStoreSchema,
  validatorStoreSchema,
} from '../src/modules/pos/schemas.js';
import { supplyStoreSchema, userStoreSchema } from '../src/modules/token/schemas.js';
import { INVALID_BLS_KEY } from '../src/modules/validators/method.js';
import { validatorKeysSchema, validatorsParamsSchema } from '../src/modules/validators/schemas.js';
import { openDatabases } from '../src/storage/database.js';
import { writeCommittedState } from '../src/storage/state_roots.js';
import { TABLES, tableHeightKey, tableKey } from '../src/storage/tables.js';

export const SNAPSHOT_CHAIN_ID = Buffer.from('04000000', 'hex');
export const SNAPSHOT_TOKEN_ID = Buffer.from('0400000000000000', 'hex');
const KLY = 100_000_000n;

interface DevKey {
  address: string;
  plain: { generatorKey: string; blsKey: string; blsProofOfPossession: string };
}
const devKeys = (): DevKey[] =>
  (
    JSON.parse(
      readFileSync(
        fileURLToPath(new URL('../../src/main/network/devnet/dev-validators.json', import.meta.url)),
        'utf8',
      ),
    ) as { keys: DevKey[] }
  ).keys;

export interface SyntheticSnapshotOptions {
  height: number;
  accounts: number;
  /** Validators, taken from the devnet's 103 (keys and proofs of possession real). */
  validators: number;
  /** How many validators form the active set at the snapshot (BFT weight by rank, highest first). */
  active: number;
  /** Validator indexes that are banned. */
  banned?: number[];
  /** Validator indexes whose BLS key was never registered (the invalid key in the validators store). */
  withoutBLSKey?: number[];
  legacyAccounts?: number;
  timestamp?: number;
}

export interface SyntheticSnapshot {
  dataPath: string;
  blockID: Buffer;
  validators: Buffer[];
  /** The active set, highest position first. */
  activeOrder: Buffer[];
  stakers: Buffer[];
  /** The stakers of validator 0 with the rewards they have not claimed (validator 0 holds them locked). */
  rewards: { staker: Buffer; amount: bigint }[];
  multisignature: Buffer;
  supply: bigint;
}

const userCodec = compile(userStoreSchema);
const authCodec = compile(authAccountSchema);
const validatorCodec = compile(validatorStoreSchema);
const keysCodec = compile(validatorKeysSchema);
const stakerCodec = compile(stakerStoreSchema);
const supplyCodec = compile(supplyStoreSchema);
const eligibleCodec = compile(eligibleValidatorsStoreSchema);
const paramsCodec = compile(validatorsParamsSchema);
const legacyCodec = compile(legacyAccountStoreSchema);
const ownCodec = compile(ownChainAccountSchema);
const posGenesisCodec = compile<GenesisPoSStore>(genesisStoreSchema);

const storeKey = (module: string, substore: number, key: Buffer): Buffer =>
  Buffer.concat([computeStorePrefix(module), computeSubstorePrefix(substore), key]);
const accountAddress = (i: number): Buffer => sha256(Buffer.from(`synthetic account ${i}`)).subarray(0, 20);
const u64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

/** Writes the snapshot under `<dataPath>/backup` and its manifest. */
export const writeSyntheticSnapshot = (dataPath: string, options: SyntheticSnapshotOptions): SyntheticSnapshot => {
  const { height } = options;
  const keys = devKeys().slice(0, options.validators);
  if (keys.length < options.validators) throw new Error('at most 103 validators (the devnet keys)');
  const validators = keys.map((k) => klayr32ToAddress(k.address));
  const banned = new Set(options.banned ?? []);
  const withoutBLS = new Set(options.withoutBLSKey ?? []);
  const timestamp = options.timestamp ?? 1_700_000_000;
  const dir = join(dataPath, 'backup');
  mkdirSync(dir, { recursive: true });
  const dbs = openDatabases(dir);
  const state: [Buffer, Buffer][] = [];
  const put = (module: string, substore: number, key: Buffer, value: Buffer): void =>
    void state.push([storeKey(module, substore, key), value]);

  // balances: every account a token entry; every tenth also an auth entry, every hundredth multisignature
  let supply = 0n;
  const balances = new Map<
    string,
    { availableBalance: bigint; lockedBalances: { module: string; amount: bigint }[] }
  >();
  const balanceOf = (address: Buffer) => {
    const k = address.toString('hex');
    let b = balances.get(k);
    if (b === undefined) {
      b = { availableBalance: 0n, lockedBalances: [] };
      balances.set(k, b);
    }
    return b;
  };
  for (let i = 0; i < options.accounts; i++) balanceOf(accountAddress(i)).availableBalance = BigInt(1000 + i) * KLY;
  for (const v of validators) balanceOf(v).availableBalance += 5000n * KLY;
  const multisignature = accountAddress(0);
  for (let i = 0; i < options.accounts; i += 10) {
    const multi = i % 100 === 0;
    const k1 = sha256(Buffer.from(`key a ${i}`));
    const k2 = sha256(Buffer.from(`key b ${i}`));
    put(
      'auth',
      0,
      accountAddress(i),
      authCodec.encode({
        nonce: BigInt(i % 7),
        numberOfSignatures: multi ? 2 : 0,
        mandatoryKeys: multi ? [k1, k2].sort(Buffer.compare) : [],
        optionalKeys: [],
      }),
    );
  }

  // stakers: accounts 1..50 stake on validators; validator 0's stakers have shared rewards they have not claimed, held locked by it
  const stakers: Buffer[] = [];
  const coefficient0 = q96ToBytes(q96(3n) / 1_000_000n);
  const rewards: { staker: Buffer; amount: bigint }[] = [];
  const stakeSums = new Map<string, bigint>();
  for (let i = 1; i <= Math.min(50, options.accounts - 1); i++) {
    const staker = accountAddress(i);
    const target = validators[i % validators.length];
    const amount = BigInt(10 * i) * KLY;
    const unlock = i % 5 === 0 ? 20n * KLY : 0n;
    put(
      'pos',
      0,
      staker,
      stakerCodec.encode({
        stakes: [
          {
            validatorAddress: target,
            amount,
            sharingCoefficients: [{ tokenID: SNAPSHOT_TOKEN_ID, coefficient: Buffer.alloc(0) }],
          },
        ],
        pendingUnlocks: unlock > 0n ? [{ validatorAddress: target, amount: unlock, unstakeHeight: height - 1 }] : [],
      }),
    );
    const b = balanceOf(staker);
    b.availableBalance -= amount + unlock;
    b.lockedBalances = [{ module: 'pos', amount: amount + unlock }];
    stakeSums.set(target.toString('hex'), (stakeSums.get(target.toString('hex')) ?? 0n) + amount);
    if (target.equals(validators[0])) {
      const owed = calculateStakeRewards(Buffer.alloc(0), amount, coefficient0);
      rewards.push({ staker, amount: owed });
      balanceOf(target).availableBalance -= owed;
      const lock = balanceOf(target).lockedBalances.find((l) => l.module === 'pos');
      if (lock === undefined) balanceOf(target).lockedBalances.push({ module: 'pos', amount: owed });
      else lock.amount += owed;
    }
    stakers.push(staker);
  }

  // legacy accounts, backed by the reserve's lock
  const legacyCount = options.legacyAccounts ?? 0;
  if (legacyCount > 0) {
    let legacyTotal = 0n;
    for (let i = 0; i < legacyCount; i++) {
      const balance = BigInt(i + 1) * KLY;
      legacyTotal += balance;
      put('legacy', 0, sha256(Buffer.from(`legacy ${i}`)).subarray(0, 8), legacyCodec.encode({ balance }));
    }
    balanceOf(ADDRESS_LEGACY_RESERVE).lockedBalances.push({ module: 'legacy', amount: legacyTotal });
  }
  for (const [k, b] of balances) {
    if (b.availableBalance < 0n) throw new Error(`synthetic account ${k} overdrawn`);
    supply += b.availableBalance + b.lockedBalances.reduce((s, l) => s + l.amount, 0n);
    b.lockedBalances.sort((x, y) => x.module.localeCompare(y.module, 'en'));
    put('token', 0, Buffer.concat([Buffer.from(k, 'hex'), SNAPSHOT_TOKEN_ID]), userCodec.encode(b));
  }
  put('token', 1, SNAPSHOT_TOKEN_ID, supplyCodec.encode({ totalSupply: supply }));

  // validators: pos accounts, keys, active set (BFT weight by rank), eligible validators by stake weight
  keys.forEach((k, i) => {
    const address = validators[i];
    put(
      'pos',
      1,
      address,
      validatorCodec.encode({
        name: `validator_${i}`,
        totalStake: stakeSums.get(address.toString('hex')) ?? 0n,
        selfStake: 0n,
        lastGeneratedHeight: height - (i % 10),
        isBanned: banned.has(i),
        reportMisbehaviorHeights: banned.has(i) ? [height - 5] : [],
        consecutiveMissedBlocks: i % 3,
        commission: 1000 + i,
        lastCommissionIncreaseHeight: i % 4,
        sharingCoefficients: [{ tokenID: SNAPSHOT_TOKEN_ID, coefficient: i === 0 ? coefficient0 : Buffer.alloc(0) }],
      }),
    );
    put(
      'validators',
      0,
      address,
      keysCodec.encode({
        generatorKey: Buffer.from(k.plain.generatorKey, 'hex'),
        blsKey: withoutBLS.has(i) ? INVALID_BLS_KEY : Buffer.from(k.plain.blsKey, 'hex'),
      }),
    );
    put(
      'pos',
      6,
      Buffer.concat([u64(BigInt(1000 - i) * KLY), address]),
      eligibleCodec.encode({ lastReportMisbehaviorHeight: 0 }),
    );
  });
  // the active set: the last `active` validators by index (so that position, not address or index order, decides)
  const activeOrder = validators.slice(validators.length - options.active).reverse();
  put(
    'validators',
    1,
    Buffer.alloc(0),
    paramsCodec.encode({
      preCommitThreshold: 1n,
      certificateThreshold: 1n,
      validators: activeOrder.map((address, rank) => ({
        address,
        bftWeight: BigInt(1000 - rank),
        generatorKey: Buffer.alloc(32, 1),
        blsKey: Buffer.alloc(48, 2),
      })),
    }),
  );
  put(
    'interoperability',
    13,
    Buffer.alloc(0),
    ownCodec.encode({ name: 'klayr_mainchain', chainID: SNAPSHOT_CHAIN_ID, nonce: 7n }),
  );

  // blocks: the genesis block (the validators' proofs of possession) and the snapshot block
  const posAsset = posGenesisCodec.encode({
    validators: keys.map((k, i) => ({
      address: validators[i],
      name: `validator_${i}`,
      blsKey: Buffer.from(k.plain.blsKey, 'hex'),
      proofOfPossession: Buffer.from(k.plain.blsProofOfPossession, 'hex'),
      generatorKey: Buffer.from(k.plain.generatorKey, 'hex'),
      lastGeneratedHeight: 0,
      isBanned: false,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: 0,
      lastCommissionIncreaseHeight: 0,
      sharingCoefficients: [],
    })),
    stakers: [],
    genesisData: { initRounds: 3, initValidators: validators.slice(0, 1) },
  });
  const genesisAssets = [{ module: 'pos', data: posAsset }];
  const genesis: Block = {
    header: unsignedGenesisHeader({
      height: 0,
      timestamp: timestamp - height * 10,
      previousBlockID: Buffer.alloc(32),
      assets: genesisAssets,
    }),
    transactions: [],
    assets: genesisAssets,
  };
  const snapshotBlock: Block = {
    header: {
      ...unsignedGenesisHeader({ height, timestamp, previousBlockID: blockHeaderID(genesis.header), assets: [] }),
      version: 2,
    },
    transactions: [],
    assets: [],
  };
  const stateRoot = sha256(Buffer.from(`synthetic state ${height}`));
  const blockID = blockHeaderID(snapshotBlock.header);
  state.sort((x, y) => Buffer.compare(x[0], y[0]));
  dbs.root.transactionSync(() => {
    for (const [k, v] of state) dbs.state.putSync(k, v);
    for (const block of [genesis, snapshotBlock]) {
      const id = blockHeaderID(block.header);
      dbs.blocks.putSync(tableHeightKey(TABLES.blockIDsByHeight, block.header.height), id);
      dbs.blocks.putSync(tableKey(TABLES.blocksByID, id), encodeBlock(block));
    }
    writeCommittedState(dbs, { height, root: stateRoot, rootVersion: 0 });
    // the old node held keys for validators 0 and 1; validator 0 generated at the snapshot height
    for (const v of validators.slice(0, 2))
      dbs.generator.putSync(tableKey(TABLES.generatorKeys, v), Buffer.from('synthetic keys'));
    putGeneratedInfoSync(dbs.generator, validators[0], {
      height,
      maxHeightPrevoted: height - 2,
      maxHeightGenerated: height - 3,
    });
  });
  void dbs.root.close();
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      height,
      blockID: blockID.toString('hex'),
      stateRoot: stateRoot.toString('hex'),
      chainID: SNAPSHOT_CHAIN_ID.toString('hex'),
      createdAt: new Date(timestamp * 1000).toISOString(),
    }),
  );
  return { dataPath, blockID, validators, activeOrder, stakers, rewards, multisignature, supply };
};

import { createGenesisBlock } from '../src/engine/genesis.js';
import type { Module } from '../src/engine/state_machine/module.js';
import type { Block } from '../src/lib/chain/block.js';
import type { Schema } from '../src/lib/codec/index.js';
import { codec } from '../src/lib/codec/index.js';
import { sha256 } from '../src/lib/crypto/hash.js';
import { genesisAuthStoreSchema } from '../src/modules/auth/schemas.js';
import { genesisInteroperabilitySchema } from '../src/modules/interoperability/schemas.js';
import { genesisLegacyStoreSchema } from '../src/modules/legacy/index.js';
import { ADDRESS_LEGACY_RESERVE } from '../src/modules/legacy/stores.js';
import { genesisStoreSchema } from '../src/modules/pos/schemas.js';
import { genesisTokenStoreSchema } from '../src/modules/token/schemas.js';
import { devValidators } from '../test/helpers/devnet.js';
import { chainID } from './fixtures.js';

const KLY = Buffer.from('0400000000000000', 'hex');
const SELF_STAKE = 1_000_000_000_000n;

/** Every genesis asset's schema, by module, for decoding the block's assets. */
export const genesisAssetSchemas: Record<string, Schema> = {
  auth: genesisAuthStoreSchema,
  interoperability: genesisInteroperabilitySchema,
  legacy: genesisLegacyStoreSchema,
  pos: genesisStoreSchema,
  token: genesisTokenStoreSchema,
};

/**
 * A live-network-like genesis block: `accounts` auth accounts (one in 20 multisignature) each
 * with a KLY balance, the 103 dev validators self-staking (51 of them initial), `legacy` legacy
 * accounts backed by the reserve's lock, and no sidechains.
 */
export const largeGenesisBlock = (accounts: number, legacy: number, modules: readonly Module[]): Block => {
  const addresses = Array.from({ length: accounts }, (_, i) =>
    sha256(Buffer.from(`genesis bench account ${i}`)).subarray(0, 20),
  ).sort(Buffer.compare);
  const authDataSubstore = addresses.map((address, i) => {
    const keys =
      i % 20 === 0
        ? Array.from({ length: 2 + (i % 4) }, (_, k) => sha256(Buffer.from(`key ${i} ${k}`))).sort(Buffer.compare)
        : [];
    return {
      address,
      authAccount: {
        nonce: BigInt(i % 1000),
        numberOfSignatures: keys.length === 0 ? 0 : 2,
        mandatoryKeys: keys.slice(0, 1),
        optionalKeys: keys.slice(1),
      },
    };
  });
  const validators = devValidators().map((v, i) => ({ address: sha256(Buffer.from(v.address)).subarray(0, 20), v, i }));
  const users = [
    ...addresses.map((address, i) => ({
      address,
      tokenID: KLY,
      availableBalance: 100_000_000n + BigInt(i),
      lockedBalances: [] as { module: string; amount: bigint }[],
    })),
    ...validators.map(({ address }) => ({
      address,
      tokenID: KLY,
      availableBalance: 0n,
      lockedBalances: [{ module: 'pos', amount: SELF_STAKE }],
    })),
  ];
  const legacyAccounts = Array.from({ length: legacy }, (_, i) => ({
    address: sha256(Buffer.from(`legacy ${i}`)).subarray(0, 8),
    balance: 1000n + BigInt(i),
  }));
  const reserve = legacyAccounts.reduce((s, a) => s + a.balance, 0n);
  if (reserve > 0n)
    users.push({
      address: ADDRESS_LEGACY_RESERVE,
      tokenID: KLY,
      availableBalance: 0n,
      lockedBalances: [{ module: 'legacy', amount: reserve }],
    });
  users.sort((a, b) => Buffer.compare(a.address, b.address));
  const totalSupply = users.reduce(
    (s, u) => s + u.availableBalance + u.lockedBalances.reduce((l, x) => l + x.amount, 0n),
    0n,
  );
  const pos = {
    validators: validators.map(({ address, v, i }) => ({
      address,
      name: `genesis_${i}`,
      blsKey: Buffer.from(v.plain.blsKey, 'hex'),
      proofOfPossession: Buffer.from(v.plain.blsProofOfPossession, 'hex'),
      generatorKey: Buffer.from(v.plain.generatorKey, 'hex'),
      lastGeneratedHeight: 0,
      isBanned: false,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: 1000,
      lastCommissionIncreaseHeight: 0,
      sharingCoefficients: [],
    })),
    stakers: validators.map(({ address }) => ({
      address,
      stakes: [{ validatorAddress: address, amount: SELF_STAKE, sharingCoefficients: [] }],
      pendingUnlocks: [],
    })),
    genesisData: { initRounds: 3, initValidators: validators.slice(0, 51).map(({ address }) => address) },
  };
  const assets = [
    { module: 'auth', data: { authDataSubstore } },
    {
      module: 'interoperability',
      data: {
        ownChainName: 'klayr_mainchain',
        ownChainNonce: 0n,
        chainInfos: [],
        terminatedStateAccounts: [],
        terminatedOutboxAccounts: [],
      },
    },
    { module: 'legacy', data: { accounts: legacyAccounts } },
    { module: 'pos', data: pos },
    {
      module: 'token',
      data: {
        userSubstore: users,
        supplySubstore: [{ tokenID: KLY, totalSupply }],
        escrowSubstore: [],
        supportedTokensSubstore: [],
      },
    },
  ].map(({ module, data }) => ({
    module,
    schema: genesisAssetSchemas[module],
    data: codec.toJSON(genesisAssetSchemas[module], data),
  }));
  return createGenesisBlock({ assets, chainID, timestamp: 1_700_000_000 }, modules);
};

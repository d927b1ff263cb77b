// Fixtures for the genesis rule tests: a small valid genesis block that exercises every module's
// genesis asset (auth accounts, stakes and locks, registered and terminated sidechains, legacy
// accounts), ways to break one asset, and both nodes' verdicts on a block.
import assert from 'node:assert/strict';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import type { Schema } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { EMPTY_HASH } from '../../src/lib/tree/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import type { GenesisAuthStore } from '../../src/modules/auth/schemas.js';
import { genesisAuthStoreSchema } from '../../src/modules/auth/schemas.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import { genesisLegacyStoreSchema } from '../../src/modules/legacy/index.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema as genesisPoSSchema } from '../../src/modules/pos/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { devValidators } from './devnet.js';
import { devnetChainID, devnetGenesis } from './genesis_compare.js';
import { runKlayrGenesis } from './klayr_genesis.js';

export const KLY = Buffer.from('0400000000000000', 'hex');
export const hex = (s: string): Buffer => Buffer.from(s, 'hex');

export interface ChainInfo {
  chainID: Buffer;
  chainData: {
    name: string;
    lastCertificate: { height: number; timestamp: number; stateRoot: Buffer; validatorsHash: Buffer };
    status: number;
  };
  channelData: {
    inbox: { appendPath: Buffer[]; size: number; root: Buffer };
    outbox: { appendPath: Buffer[]; size: number; root: Buffer };
    partnerChainOutboxRoot: Buffer;
    messageFeeTokenID: Buffer;
    minReturnFeePerByte: bigint;
  };
  chainValidators: { activeValidators: { blsKey: Buffer; bftWeight: bigint }[]; certificateThreshold: bigint };
}
export interface GenesisInterop {
  ownChainName: string;
  ownChainNonce: bigint;
  chainInfos: ChainInfo[];
  terminatedStateAccounts: {
    chainID: Buffer;
    terminatedStateAccount: { stateRoot: Buffer; mainchainStateRoot: Buffer; initialized: boolean };
  }[];
  terminatedOutboxAccounts: {
    chainID: Buffer;
    terminatedOutboxAccount: { outboxRoot: Buffer; outboxSize: number; partnerChainInboxSize: number };
  }[];
}
export interface GenesisLegacy {
  accounts: { address: Buffer; balance: bigint }[];
}

/** The genesis asset schema of each module that reads one. */
export const GENESIS_SCHEMAS = {
  auth: genesisAuthStoreSchema,
  token: genesisTokenStoreSchema,
  pos: genesisPoSSchema,
  interoperability: genesisInteroperabilitySchema,
  legacy: genesisLegacyStoreSchema,
} as const satisfies Record<string, Schema>;
interface GenesisAssets {
  auth: GenesisAuthStore;
  token: GenesisTokenStore;
  pos: GenesisPoSStore;
  interoperability: GenesisInterop;
  legacy: GenesisLegacy;
}
export type AssetModule = keyof GenesisAssets;

export const decodeAsset = <M extends AssetModule>(block: Block, module: M): GenesisAssets[M] =>
  codec.decode<GenesisAssets[M]>(GENESIS_SCHEMAS[module], block.assets.find((a) => a.module === module)!.data);

/** The block with one module's asset replaced (kept in module order; added when absent). Neither node checks the asset root at genesis. */
export const withAsset = <M extends AssetModule>(block: Block, module: M, value: GenesisAssets[M]): Block => {
  const data = codec.encode(GENESIS_SCHEMAS[module], value);
  const others = block.assets.filter((a) => a.module !== module);
  return {
    ...block,
    assets: [...others, { module, data }].sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0)),
  };
};

/** The block with one module's asset decoded, changed by `mutate` and re-encoded. */
export const mutateAsset = <M extends AssetModule>(
  block: Block,
  module: M,
  mutate: (asset: GenesisAssets[M]) => void,
): Block => {
  const asset = decodeAsset(block, module);
  mutate(asset);
  return withAsset(block, module, asset);
};

export const withoutAsset = (block: Block, module: string): Block => ({
  ...block,
  assets: block.assets.filter((a) => a.module !== module),
});

const devKeys = devValidators();
/** Ed25519 public keys of the dev validators, sorted. */
export const publicKeys = (n: number): Buffer[] =>
  devKeys
    .slice(0, n)
    .map((k) => hex(k.publicKey))
    .sort(Buffer.compare);
/** A 20-byte address made of one repeated byte. */
export const addressOf = (byte: number): Buffer => Buffer.alloc(20, byte);

/** The amounts the base staker has staked (a self-stake) and is unlocking (from the second validator). */
export const STAKED = 2000000000n;
export const UNLOCKING = 500000000n;

/** A registered sidechain's genesis entry, consistent with the genesis header's timestamp. */
export const sidechainInfo = (timestamp: number, chainID: string, name: string, status: number): ChainInfo => {
  const activeValidators = devKeys
    .slice(0, 4)
    .map((v) => hex(v.plain.blsKey))
    .sort(Buffer.compare)
    .map((blsKey) => ({ blsKey, bftWeight: 10n }));
  const certificateThreshold = 30n;
  const box = { appendPath: [], size: 0, root: EMPTY_HASH };
  return {
    chainID: hex(chainID),
    chainData: {
      name,
      lastCertificate: {
        height: 10,
        timestamp: timestamp - 100,
        stateRoot: sha256(Buffer.from(name)),
        validatorsHash: computeValidatorsHash(activeValidators, certificateThreshold),
      },
      status,
    },
    channelData: {
      inbox: box,
      outbox: { ...box, size: 2, root: sha256(Buffer.from('outbox')) },
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: KLY,
      minReturnFeePerByte: 1000n,
    },
    chainValidators: { activeValidators, certificateThreshold },
  };
};

/** A terminated state account matching a terminated sidechain's entry. */
export const terminatedStateAccount = (info: ChainInfo) => ({
  chainID: info.chainID,
  terminatedStateAccount: {
    stateRoot: info.chainData.lastCertificate.stateRoot,
    mainchainStateRoot: EMPTY_HASH,
    initialized: true,
  },
});

/**
 * A valid genesis block, small enough to run fast on both nodes: the devnet genesis with its
 * first three validators (all of them initial validators), one of which self-stakes STAKED and
 * unlocks UNLOCKING from the second (its pos lock holding both), an auth asset with a
 * single-signature and a multisignature account, sidechain `04000001` registered (active) and
 * `04000002` terminated (with state and outbox accounts, and both escrow accounts), and the
 * devnet's legacy accounts.
 */
export const ruleBase = (): Block => {
  const devnet = devnetGenesis();
  const { timestamp } = devnet.header;
  let block = mutateAsset(devnet, 'pos', (pos) => {
    pos.validators = pos.validators.slice(0, 3);
    pos.genesisData.initValidators = pos.validators.map((v) => v.address);
  });
  const validators = decodeAsset(block, 'pos').validators;
  const users = decodeAsset(block, 'token').userSubstore;
  const staker = validators.find((v) =>
    users.some((u) => u.address.equals(v.address) && u.tokenID.equals(KLY)),
  )!.address;
  const unlockFrom = validators.find((v) => !v.address.equals(staker))!.address;
  block = mutateAsset(block, 'pos', (pos) => {
    pos.stakers = [
      {
        address: staker,
        stakes: [{ validatorAddress: staker, amount: STAKED, sharingCoefficients: [] }],
        pendingUnlocks: [{ validatorAddress: unlockFrom, amount: UNLOCKING, unstakeHeight: 0 }],
      },
    ];
  });
  block = mutateAsset(block, 'token', (token) => {
    const user = token.userSubstore.find((u) => u.address.equals(staker) && u.tokenID.equals(KLY))!;
    user.availableBalance -= STAKED + UNLOCKING;
    user.lockedBalances = [{ module: 'pos', amount: STAKED + UNLOCKING }];
    token.escrowSubstore = [
      { escrowChainID: hex('04000001'), tokenID: KLY, amount: 0n },
      { escrowChainID: hex('04000002'), tokenID: KLY, amount: 0n },
    ];
  });
  const active = sidechainInfo(timestamp, '04000001', 'sidechain_one', 1);
  const terminated = sidechainInfo(timestamp, '04000002', 'sidechain_two', 2);
  block = withAsset(block, 'interoperability', {
    ownChainName: 'klayr_mainchain',
    ownChainNonce: 7n,
    chainInfos: [active, terminated],
    terminatedStateAccounts: [terminatedStateAccount(terminated)],
    terminatedOutboxAccounts: [
      {
        chainID: terminated.chainID,
        terminatedOutboxAccount: {
          outboxRoot: sha256(Buffer.from('terminated')),
          outboxSize: 3,
          partnerChainInboxSize: 1,
        },
      },
    ],
  });
  const [k1, k2, k3] = publicKeys(3) as [Buffer, Buffer, Buffer];
  return withAsset(block, 'auth', {
    authDataSubstore: [
      {
        address: addressFromPublicKey(hex(devKeys[10]!.publicKey)),
        authAccount: { nonce: 3n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] },
      },
      {
        address: addressFromPublicKey(hex(devKeys[11]!.publicKey)),
        authAccount: { nonce: 0n, numberOfSignatures: 2, mandatoryKeys: [k1], optionalKeys: [k2, k3] },
      },
    ],
  });
};

export type ModuleOverrides = Record<string, Record<string, unknown>>;

export interface Verdicts {
  /** Kestrel's refusal (its modules' genesis over the block), if any. */
  kestrel?: Error;
  /** klayr-framework's refusal (its modules, wired as Klayr Core does, over the block), if any. */
  klayr?: Error;
}

/** Runs both nodes' module genesis over the block, with the same module config overrides. */
export const verdicts = async (block: Block, overrides: ModuleOverrides = {}): Promise<Verdicts> => {
  const config = loadConfig();
  for (const [name, values] of Object.entries(overrides)) config.modules[name] = { ...config.modules[name], ...values };
  const out: Verdicts = {};
  try {
    executeGenesis(applicationModules(config), block, devnetChainID, new BlockState(EMPTY_STATE));
  } catch (e) {
    out.kestrel = e as Error;
  }
  try {
    await runKlayrGenesis(encodeBlock(block), overrides);
  } catch (e) {
    out.klayr = e as Error;
  }
  return out;
};

/**
 * Both nodes refuse the block, for the same rule: with exactly `message` when a string (Klayr's
 * own words), or with messages that both match `pattern` (where the text is the schema
 * validator's, or, for Klayr, a JavaScript error).
 */
export const assertBothRefuse = async (
  block: Block,
  expected: string | RegExp,
  overrides: ModuleOverrides = {},
): Promise<void> => {
  const { kestrel, klayr } = await verdicts(block, overrides);
  assert.ok(klayr !== undefined, 'klayr-framework accepts the block');
  assert.ok(kestrel !== undefined, `Kestrel accepts a block klayr-framework refuses with: ${klayr.message}`);
  if (typeof expected === 'string') {
    assert.equal(klayr.message, expected, 'klayr-framework refuses it for another rule');
    assert.equal(kestrel.message, klayr.message, 'Kestrel refuses it for another rule');
  } else {
    assert.match(klayr.message, expected, 'klayr-framework refuses it for another rule');
    assert.match(kestrel.message, expected, 'Kestrel refuses it for another rule');
  }
};

/** Both nodes accept the block. */
export const assertBothAccept = async (block: Block, overrides: ModuleOverrides = {}): Promise<void> => {
  const { kestrel, klayr } = await verdicts(block, overrides);
  assert.equal(klayr?.message, undefined, 'klayr-framework refuses the block');
  assert.equal(kestrel?.message, undefined, 'Kestrel refuses the block');
};

/**
 * Klayr Core's legacy module is not in klayr-framework: Kestrel refuses the block with Klayr Core's
 * message while klayr-framework's modules accept it, so the refusal is the legacy module's alone.
 */
export const assertLegacyRefuses = async (block: Block, expected: string | RegExp): Promise<void> => {
  const { kestrel, klayr } = await verdicts(block);
  assert.equal(
    klayr?.message,
    undefined,
    "klayr-framework's modules refuse the block: the legacy asset is not the only fault",
  );
  assert.ok(kestrel !== undefined, 'Kestrel accepts the block');
  if (typeof expected === 'string') assert.equal(kestrel.message, expected);
  else assert.match(kestrel.message, expected);
};

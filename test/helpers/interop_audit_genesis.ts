// Genesis blocks for the interoperability spec audit: the devnet genesis with interoperability and
// token records that the interoperability endpoints read (chain accounts, channels, chain
// validators, terminated state and outbox accounts, escrows), as a mainchain and as a sidechain,
// each with three genesis validators.

import { computeGenesis } from '../../src/engine/genesis.js';
import { EMPTY_STATE } from '../../src/engine/state/state_db.js';
import type { Block, BlockAsset } from '../../src/lib/chain/block.js';
import { computeAssetRoot } from '../../src/lib/chain/block.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { codec } from '../../src/lib/codec/index.js';
import { EMPTY_HASH } from '../../src/lib/tree/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { applicationModules } from '../../src/main/modules.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { devValidators } from './devnet.js';
import { devnetGenesis } from './genesis_compare.js';
import { sidechainGenesisBlock } from './interop_oracle_sidechain_genesis.js';

export const MAINCHAIN_ID = '04000000';
export const SIDECHAIN_ID = '04000001';
export const TERMINATED_ID = '04000002';
export const KLY = Buffer.from('0400000000000000', 'hex');
export const SIDECHAIN_TOKEN = Buffer.from(`${SIDECHAIN_ID}00000000`, 'hex');
export const ESCROWED = 1_000_000n;

const STATUS_ACTIVE = 1;
const STATUS_TERMINATED = 2;
const id = (hex: string) => Buffer.from(hex, 'hex');

const box = (byte: number, size: number) => ({
  appendPath: [Buffer.alloc(32, byte)],
  size,
  root: Buffer.alloc(32, byte + 1),
});

/** A chain's record in the interoperability genesis asset: account, channel and three validators. */
const chainInfo = (chainID: string, name: string, status: number, timestamp: number) => {
  const activeValidators = devValidators()
    .slice(0, 3)
    .map((v) => Buffer.from(v.plain.blsKey, 'hex'))
    .sort(Buffer.compare)
    .map((blsKey) => ({ blsKey, bftWeight: 10n }));
  const certificateThreshold = 21n;
  return {
    chainID: id(chainID),
    chainData: {
      name,
      lastCertificate: {
        height: 5,
        timestamp: timestamp - 100,
        stateRoot: Buffer.alloc(32, 3),
        validatorsHash: computeValidatorsHash(activeValidators, certificateThreshold),
      },
      status,
    },
    channelData: {
      inbox: box(4, 1),
      outbox: box(6, 2),
      partnerChainOutboxRoot: Buffer.alloc(32, 8),
      messageFeeTokenID: KLY,
      minReturnFeePerByte: 1000n,
    },
    chainValidators: { activeValidators, certificateThreshold },
  };
};

/** Validators the audit chains start with: no block is generated, and each genesis validator costs a proof-of-possession check. */
const VALIDATORS = 3;

/** The devnet's PoS asset cut to its first validators, who are also the initial ones. */
const fewValidators = (block: Block): Buffer => {
  const pos = codec.decode<GenesisPoSStore>(
    genesisStoreSchema,
    block.assets.find((a) => a.module === 'pos')?.data ?? Buffer.alloc(0),
  );
  const validators = pos.validators.slice(0, VALIDATORS);
  return codec.encode(genesisStoreSchema, {
    ...pos,
    validators,
    genesisData: { ...pos.genesisData, initValidators: validators.map((v) => v.address) },
  });
};

const tokenAssetOf = (block: Block): GenesisTokenStore =>
  codec.decode<GenesisTokenStore>(
    genesisTokenStoreSchema,
    block.assets.find((a) => a.module === 'token')?.data ?? Buffer.alloc(0),
  );

/** The block with its assets replaced (and `drop` removed), its header roots recomputed. */
const rebuilt = (
  block: Block,
  replace: Record<string, Buffer>,
  drop: readonly string[],
  chainID: string,
  config: ApplicationConfig,
): Block => {
  const assets: BlockAsset[] = block.assets
    .filter((a) => !drop.includes(a.module))
    .map((a) => (replace[a.module] === undefined ? a : { module: a.module, data: replace[a.module] }));
  const unrooted: Block = { ...block, assets, header: { ...block.header, assetRoot: computeAssetRoot(assets) } };
  const { stateRoot, eventRoot, validatorsHash } = computeGenesis(
    unrooted,
    id(chainID),
    applicationModules(config),
    EMPTY_STATE,
  );
  return { ...unrooted, header: { ...unrooted.header, stateRoot, eventRoot, validatorsHash } };
};

/**
 * The devnet mainchain with an active sidechain and a terminated chain (its state and outbox
 * accounts), each with the KLY escrow the mainchain keeps for it.
 */
export const mainchainAuditGenesis = (config: ApplicationConfig): Block => {
  const block = devnetGenesis();
  const { timestamp } = block.header;
  const terminated = chainInfo(TERMINATED_ID, 'chain_terminated', STATUS_TERMINATED, timestamp);
  const interop = codec.encode(genesisInteroperabilitySchema, {
    ownChainName: 'klayr_mainchain',
    ownChainNonce: 1n,
    chainInfos: [chainInfo(SIDECHAIN_ID, 'chain_active', STATUS_ACTIVE, timestamp), terminated],
    terminatedStateAccounts: [
      {
        chainID: id(TERMINATED_ID),
        terminatedStateAccount: {
          stateRoot: terminated.chainData.lastCertificate.stateRoot,
          mainchainStateRoot: EMPTY_HASH,
          initialized: true,
        },
      },
    ],
    terminatedOutboxAccounts: [
      {
        chainID: id(TERMINATED_ID),
        terminatedOutboxAccount: { outboxRoot: Buffer.alloc(32, 10), outboxSize: 3, partnerChainInboxSize: 2 },
      },
    ],
  });
  const token = tokenAssetOf(block);
  const escrows = [SIDECHAIN_ID, TERMINATED_ID].map((chain) => ({
    escrowChainID: id(chain),
    tokenID: KLY,
    amount: ESCROWED,
  }));
  const tokenData = codec.encode(genesisTokenStoreSchema, {
    ...token,
    supplySubstore: token.supplySubstore.map((s) =>
      s.tokenID.equals(KLY) ? { ...s, totalSupply: s.totalSupply + ESCROWED * BigInt(escrows.length) } : s,
    ),
    escrowSubstore: escrows,
  });
  return rebuilt(
    block,
    { interoperability: interop, token: tokenData, pos: fewValidators(block) },
    [],
    MAINCHAIN_ID,
    config,
  );
};

/**
 * The devnet as a sidechain that has registered the mainchain (its account, channel and
 * validators) and knows a terminated chain's state (a sidechain's genesis holds no terminated
 * outbox account), with an escrow of its own token on the mainchain. A sidechain runs no legacy module.
 */
export const sidechainAuditGenesis = (config: ApplicationConfig): Block => {
  const block = sidechainGenesisBlock();
  const interop = codec.encode(genesisInteroperabilitySchema, {
    ownChainName: 'sidechain_audit',
    ownChainNonce: 1n,
    chainInfos: [chainInfo(MAINCHAIN_ID, 'klayr_mainchain', STATUS_ACTIVE, block.header.timestamp)],
    terminatedStateAccounts: [
      {
        chainID: id(TERMINATED_ID),
        terminatedStateAccount: { stateRoot: Buffer.alloc(32, 9), mainchainStateRoot: EMPTY_HASH, initialized: true },
      },
    ],
    terminatedOutboxAccounts: [],
  });
  const token = codec.encode(genesisTokenStoreSchema, {
    ...tokenAssetOf(block),
    supplySubstore: [{ tokenID: SIDECHAIN_TOKEN, totalSupply: ESCROWED }],
    escrowSubstore: [{ escrowChainID: id(MAINCHAIN_ID), tokenID: SIDECHAIN_TOKEN, amount: ESCROWED }],
  });
  return rebuilt(
    block,
    { interoperability: interop, token, pos: fewValidators(block) },
    ['legacy'],
    SIDECHAIN_ID,
    config,
  );
};

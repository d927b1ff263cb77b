import type { GenesisContext } from '../../engine/state_machine/module.js';
import { computeValidatorsHash } from '../../lib/chain/validators_hash.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { EMPTY_HASH } from '../../lib/tree/index.js';
import { tokenStore } from '../token/stores.js';
import {
  CHAIN_NAME_MAINCHAIN,
  CHAIN_STATUS,
  MAX_NUM_VALIDATORS,
  MAX_UINT64,
  MIN_RETURN_FEE_PER_BYTE,
} from './base/constants.js';
import { getMainchainID, getTokenIDKLY, isValidName } from './base/utils.js';
import {
  chainAccountSchema,
  chainValidatorsSchema,
  channelDataSchema,
  genesisInteroperabilitySchema,
  ownChainAccountSchema,
  registeredNamesSchema,
  terminatedOutboxSchema,
  terminatedStateSchema,
} from './schemas.js';
import { interopStore, MODULE_NAME, outboxRootSchema } from './stores.js';

export { CHAIN_NAME_MAINCHAIN };
export const CHAIN_STATUS_TERMINATED = CHAIN_STATUS.TERMINATED;

type Box = { appendPath: Buffer[]; size: number; root: Buffer };
export interface ChainInfo {
  chainID: Buffer;
  chainData: {
    name: string;
    lastCertificate: { height: number; timestamp: number; stateRoot: Buffer; validatorsHash: Buffer };
    status: number;
  };
  channelData: {
    inbox: Box;
    outbox: Box;
    partnerChainOutboxRoot: Buffer;
    messageFeeTokenID: Buffer;
    minReturnFeePerByte: bigint;
  };
  chainValidators: { activeValidators: { blsKey: Buffer; bftWeight: bigint }[]; certificateThreshold: bigint };
}
export interface GenesisInteroperability {
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

const genesisCodec: CompiledSchema<GenesisInteroperability> =
  compile<GenesisInteroperability>(genesisInteroperabilitySchema);
/** The mainchain's own chain ID: the network byte followed by zeros. */
export const mainchainID = getMainchainID;
const tokenIDKLY = getTokenIDKLY;

export const unique = (items: readonly Buffer[]): boolean =>
  new Set(items.map((b) => b.toString('hex'))).size === items.length;
export const ordered = (items: readonly Buffer[]): boolean =>
  items.every((b, i) => i === 0 || Buffer.compare(items[i - 1], b) <= 0);

export const checkChainID = (chainID: Buffer, mainchain: Buffer, prefix: string): void => {
  if (chainID.equals(mainchain)) throw new Error(`${prefix}chainID must not be equal to ${mainchain.toString('hex')}.`);
  if (chainID[0] !== mainchain[0]) throw new Error(`${prefix}chainID[0] must be equal to ${mainchain[0]}.`);
};

/** Klayr's _verifyChannelData: message fees in KLY at the minimum return fee. */
export const checkChannelData = (ctx: GenesisContext, info: ChainInfo): void => {
  const { channelData } = info;
  if (!channelData.messageFeeTokenID.equals(tokenIDKLY(ctx.chainID)))
    throw new Error('channelData.messageFeeTokenID is not equal to Token.getTokenIDKLY().');
  if (channelData.minReturnFeePerByte !== MIN_RETURN_FEE_PER_BYTE)
    throw new Error(`channelData.minReturnFeePerByte is not equal to ${MIN_RETURN_FEE_PER_BYTE}.`);
};

/** Klayr's _verifyChainValidators. */
export const checkChainValidators = (info: ChainInfo): void => {
  const { chainData, chainValidators } = info;
  const { activeValidators, certificateThreshold } = chainValidators;
  if (activeValidators.length === 0 || activeValidators.length > MAX_NUM_VALIDATORS)
    throw new Error(`activeValidators must have at least 1 element and at most ${MAX_NUM_VALIDATORS} elements.`);
  const keys = activeValidators.map((v) => v.blsKey);
  if (!ordered(keys)) throw new Error('activeValidators must be ordered lexicographically by blsKey property.');
  if (!unique(keys)) throw new Error('All blsKey properties must be pairwise distinct.');
  if (activeValidators.some((v) => v.bftWeight <= 0n)) throw new Error('validator.bftWeight must be > 0.');
  const total = activeValidators.reduce((sum, v) => sum + v.bftWeight, 0n);
  if (total > MAX_UINT64) throw new Error(`totalWeight has to be less than or equal to ${MAX_UINT64}.`);
  if (total / 3n + 1n > certificateThreshold || certificateThreshold > total)
    throw new Error('Invalid certificateThreshold input.');
  if (!chainData.lastCertificate.validatorsHash.equals(computeValidatorsHash(activeValidators, certificateThreshold)))
    throw new Error('Invalid validatorsHash from chainData.lastCertificate.');
};

const checkChainInfo = (
  ctx: GenesisContext,
  info: ChainInfo,
  terminated: GenesisInteroperability['terminatedStateAccounts'],
): void => {
  const { chainData } = info;
  if (chainData.lastCertificate.timestamp >= ctx.header.timestamp)
    throw new Error('chainData.lastCertificate.timestamp must be less than header.timestamp.');
  if (!isValidName(chainData.name))
    throw new Error('Invalid chainData.name property. It should contain only characters from the set [a-z0-9!@$&_.].');
  if (![0, 1, 2].includes(chainData.status)) throw new Error('chainData.status must be one of 0, 1, 2');
  if (chainData.status === CHAIN_STATUS_TERMINATED && !terminated.some((a) => a.chainID.equals(info.chainID))) {
    throw new Error(
      'For each chainInfo with status terminated there should be a corresponding entry in terminatedStateAccounts.',
    );
  }
  checkChannelData(ctx, info);
  checkChainValidators(info);
};

const checkAsset = (ctx: GenesisContext, g: GenesisInteroperability): void => {
  const mainchain = mainchainID(ctx.chainID);
  if (g.ownChainName !== CHAIN_NAME_MAINCHAIN)
    throw new Error(`ownChainName must be equal to ${CHAIN_NAME_MAINCHAIN}.`);
  if (g.chainInfos.length === 0 && g.ownChainNonce !== 0n)
    throw new Error('ownChainNonce must be 0 if chainInfos is empty.');
  if (g.chainInfos.length !== 0 && g.ownChainNonce <= 0n)
    throw new Error('ownChainNonce must be positive if chainInfos is not empty.');
  const chainIDs = g.chainInfos.map((i) => i.chainID);
  if (!unique(chainIDs)) throw new Error("chainInfos doesn't hold unique chainID.");
  if (!ordered(chainIDs)) throw new Error('chainInfos is not ordered lexicographically by chainID.');
  const names = g.chainInfos.map((i) => i.chainData.name);
  if (new Set(names).size !== names.length) throw new Error('chainData.name must be pairwise distinct.');
  for (const info of g.chainInfos) {
    checkChainID(info.chainID, mainchain, 'chainInfo.');
    checkChainInfo(ctx, info, g.terminatedStateAccounts);
  }
  const stateIDs = g.terminatedStateAccounts.map((a) => a.chainID);
  if (!unique(stateIDs)) throw new Error("terminatedStateAccounts don't hold unique chainID.");
  if (!ordered(stateIDs)) throw new Error('terminatedStateAccounts must be ordered lexicographically by chainID.');
  for (const { chainID, terminatedStateAccount: account } of g.terminatedStateAccounts) {
    checkChainID(chainID, mainchain, 'stateAccount.');
    const info = g.chainInfos.find((i) => i.chainID.equals(chainID));
    if (info === undefined || info.chainData.status !== CHAIN_STATUS_TERMINATED)
      throw new Error('For each terminatedStateAccount there should be a corresponding chainInfo at TERMINATED state.');
    if (!account.stateRoot.equals(info.chainData.lastCertificate.stateRoot))
      throw new Error("stateAccount.stateRoot doesn't match chainInfo.chainData.lastCertificate.stateRoot.");
    if (!account.mainchainStateRoot.equals(EMPTY_HASH))
      throw new Error(`stateAccount.mainchainStateRoot is not equal to ${EMPTY_HASH.toString('hex')}.`);
    if (!account.initialized) throw new Error('stateAccount is not initialized.');
  }
  const outboxIDs = g.terminatedOutboxAccounts.map((a) => a.chainID);
  if (!unique(outboxIDs)) throw new Error('terminatedOutboxAccounts do not hold unique chainID.');
  if (!ordered(outboxIDs)) throw new Error('terminatedOutboxAccounts must be ordered lexicographically by chainID.');
  for (const { chainID } of g.terminatedOutboxAccounts) {
    if (!stateIDs.some((id) => id.equals(chainID)))
      throw new Error(
        `outboxAccount with chainID: ${chainID.toString('hex')} must have a corresponding entry in terminatedStateAccounts.`,
      );
  }
};

export const decodeInteroperabilityGenesis = (ctx: GenesisContext): GenesisInteroperability | undefined => {
  const bytes = ctx.asset(MODULE_NAME);
  if (bytes === undefined) return undefined;
  const genesis = genesisCodec.decode(bytes);
  genesisCodec.validate(genesis);
  return genesis;
};

/** Klayr's processGenesisState: the own chain account, chain accounts with channels, validators and outbox roots, terminated accounts. */
export const storeInteroperabilityGenesis = (ctx: GenesisContext, g: GenesisInteroperability): void => {
  if (g.ownChainName !== '')
    interopStore(ctx, 'ownChainAccount').setWithSchema(
      Buffer.alloc(0),
      { name: g.ownChainName, chainID: ctx.chainID, nonce: g.ownChainNonce },
      ownChainAccountSchema,
    );
  for (const info of g.chainInfos) {
    interopStore(ctx, 'chainAccount').setWithSchema(info.chainID, info.chainData, chainAccountSchema);
    interopStore(ctx, 'channelData').setWithSchema(info.chainID, info.channelData, channelDataSchema);
    interopStore(ctx, 'chainValidators').setWithSchema(info.chainID, info.chainValidators, chainValidatorsSchema);
    if (info.chainData.status !== CHAIN_STATUS_TERMINATED)
      interopStore(ctx, 'outboxRoot').setWithSchema(
        info.chainID,
        { root: info.channelData.outbox.root },
        outboxRootSchema,
      );
  }
  for (const { chainID, terminatedStateAccount } of g.terminatedStateAccounts)
    interopStore(ctx, 'terminatedState').setWithSchema(chainID, terminatedStateAccount, terminatedStateSchema);
  for (const { chainID, terminatedOutboxAccount } of g.terminatedOutboxAccounts)
    interopStore(ctx, 'terminatedOutbox').setWithSchema(chainID, terminatedOutboxAccount, terminatedOutboxSchema);
};

/** The mainchain interoperability genesis: own chain account, registered sidechains with their channels and validators, terminated accounts, registered names. */
export const initInteroperabilityGenesis = (ctx: GenesisContext): void => {
  const g = decodeInteroperabilityGenesis(ctx);
  if (g === undefined) return;
  checkAsset(ctx, g);
  storeInteroperabilityGenesis(ctx, g);
  const names = interopStore(ctx, 'registeredNames');
  for (const info of g.chainInfos)
    names.setWithSchema(Buffer.from(info.chainData.name, 'ascii'), { chainID: info.chainID }, registeredNamesSchema);
  names.setWithSchema(
    Buffer.from(CHAIN_NAME_MAINCHAIN, 'ascii'),
    { chainID: mainchainID(ctx.chainID) },
    registeredNamesSchema,
  );
};

/** Each registered sidechain whose message fees are in this chain's native token needs its escrow account. */
export const finalizeInteroperabilityGenesis = (ctx: GenesisContext): void => {
  const g = decodeInteroperabilityGenesis(ctx);
  // Klayr's finalizeGenesisState decodes the asset unconditionally, so it cannot process a genesis block without one
  if (g === undefined)
    throw new Error('Genesis block has no interoperability asset, which the interoperability module requires.');
  for (const { chainID, channelData } of g.chainInfos) {
    const native = channelData.messageFeeTokenID.subarray(0, 4).equals(ctx.chainID);
    if (native && !tokenStore(ctx, 'escrow').has(Buffer.concat([chainID, channelData.messageFeeTokenID])))
      throw new Error("Corresponding escrow account doesn't exist.");
  }
};

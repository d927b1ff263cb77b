import type { GenesisContext } from '../../../engine/state_machine/module.js';
import { CHAIN_NAME_MAINCHAIN, EMPTY_HASH } from '../base/constants.js';
import { getMainchainID, invalidNameError, isValidName } from '../base/utils.js';
import type { GenesisInteroperability } from '../genesis.js';
import {
  checkChainID,
  checkChainValidators,
  checkChannelData,
  decodeInteroperabilityGenesis,
  ordered,
  storeInteroperabilityGenesis,
  unique,
} from '../genesis.js';

const EMPTY = EMPTY_HASH.toString('hex');

/** Klayr's sidechain _verifyChainInfos: nothing, or exactly the mainchain's account under a name of the sidechain's own. */
const checkChainInfos = (ctx: GenesisContext, g: GenesisInteroperability): void => {
  const { ownChainName, ownChainNonce, chainInfos, terminatedStateAccounts, terminatedOutboxAccounts } = g;
  if (chainInfos.length === 0) {
    const suffix = 'if chainInfos is empty.';
    if (ownChainName !== '') throw new Error(`ownChainName must be empty string, ${suffix}.`);
    if (ownChainNonce !== 0n) throw new Error(`ownChainNonce must be 0, ${suffix}.`);
    if (terminatedStateAccounts.length !== 0) throw new Error(`terminatedStateAccounts must be empty, ${suffix}.`);
    if (terminatedOutboxAccounts.length !== 0) throw new Error(`terminatedOutboxAccounts must be empty, ${suffix}.`);
    return;
  }
  if (ownChainName.length < 1 || ownChainName.length > 32)
    throw new Error('ownChainName.length must be inclusively between 1 and 32.');
  if (!isValidName(ownChainName)) throw invalidNameError('ownChainName');
  if (ownChainName === CHAIN_NAME_MAINCHAIN)
    throw new Error(`ownChainName must be not equal to ${CHAIN_NAME_MAINCHAIN}.`);
  if (ownChainNonce <= 0n) throw new Error('ownChainNonce must be > 0.');
  if (chainInfos.length !== 1) throw new Error('chainInfos must contain exactly one entry.');
  const mainchainInfo = chainInfos[0];
  const mainchainID = getMainchainID(ctx.chainID);
  if (!mainchainInfo.chainID.equals(mainchainID))
    throw new Error(`mainchainInfo.chainID must be equal to ${mainchainID.toString('hex')}.`);
  if (mainchainInfo.chainData.name !== CHAIN_NAME_MAINCHAIN)
    throw new Error(`chainData.name must be equal to ${CHAIN_NAME_MAINCHAIN}.`);
  if (![0, 1].includes(mainchainInfo.chainData.status)) throw new Error('chainData.status must be one of 0, 1.');
  if (mainchainInfo.chainData.lastCertificate.timestamp >= ctx.header.timestamp)
    throw new Error('chainData.lastCertificate.timestamp must be < header.timestamp.');
  checkChannelData(ctx, mainchainInfo);
  checkChainValidators(mainchainInfo);
};

const checkTerminatedStateAccounts = (
  ctx: GenesisContext,
  accounts: GenesisInteroperability['terminatedStateAccounts'],
): void => {
  const ids = accounts.map((a) => a.chainID);
  if (!unique(ids)) throw new Error("terminatedStateAccounts don't hold unique chainID.");
  if (!ordered(ids)) throw new Error('terminatedStateAccounts must be ordered lexicographically by chainID.');
  const mainchainID = getMainchainID(ctx.chainID);
  for (const { chainID, terminatedStateAccount: account } of accounts) {
    checkChainID(chainID, mainchainID, 'stateAccount.');
    if (chainID.equals(ctx.chainID)) throw new Error('stateAccount.chainID must not be equal to OWN_CHAIN_ID.');
    if (account.initialized) {
      if (account.stateRoot.equals(EMPTY_HASH))
        throw new Error(`stateAccount.stateRoot must not be equal to "${EMPTY}", if initialized is true.`);
      if (!account.mainchainStateRoot.equals(EMPTY_HASH))
        throw new Error(
          `terminatedStateAccount.mainchainStateRoot must be equal to "${EMPTY}", if initialized is true`,
        );
    } else {
      if (!account.stateRoot.equals(EMPTY_HASH))
        throw new Error(`stateAccount.stateRoot mst be equal to "${EMPTY}", if initialized is false.`);
      if (account.mainchainStateRoot.equals(EMPTY_HASH))
        throw new Error(
          `terminatedStateAccount.mainchainStateRoot must not be equal to "${EMPTY}", if initialized is false.`,
        );
    }
  }
};

/** The sidechain interoperability genesis (Klayr's SidechainInteroperabilityModule.initGenesisState). */
export const initSidechainInteroperabilityGenesis = (ctx: GenesisContext): void => {
  const g = decodeInteroperabilityGenesis(ctx);
  if (g === undefined) return;
  checkChainInfos(ctx, g);
  checkTerminatedStateAccounts(ctx, g.terminatedStateAccounts);
  if (g.terminatedOutboxAccounts.length !== 0) throw new Error('terminatedOutboxAccounts must be empty.');
  storeInteroperabilityGenesis(ctx, g);
};

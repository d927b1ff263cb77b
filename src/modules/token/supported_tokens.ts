import type { StoreAccess } from '../../engine/state_machine/module.js';
import { supportedTokensStoreSchema } from './schemas.js';
import { ALL_SUPPORTED_TOKENS_KEY, CHAIN_ID_LENGTH, TOKEN_ID_LENGTH, tokenStore } from './stores.js';

/** Whether a token ID is the chain's own or the mainchain's KLY token, which are always supported (Klayr's _isMainchainOrNative). */
export const isMainchainOrNative = (ownChainID: Buffer, tokenID: Buffer): boolean => {
  const chainID = tokenID.subarray(0, CHAIN_ID_LENGTH);
  if (chainID.equals(ownChainID)) return true;
  const mainchain = Buffer.from([chainID[0], 0, 0, 0]);
  return (
    chainID[0] === ownChainID[0] &&
    chainID.equals(mainchain) &&
    tokenID.equals(Buffer.concat([mainchain, Buffer.alloc(TOKEN_ID_LENGTH - CHAIN_ID_LENGTH)]))
  );
};

/** Klayr's SupportedTokensStore.isSupported: native or KLY, all tokens, all of the token's chain, or the token itself. */
export const isTokenSupported = (ctx: StoreAccess, ownChainID: Buffer, tokenID: Buffer): boolean => {
  if (isMainchainOrNative(ownChainID, tokenID)) return true;
  const supported = tokenStore(ctx, 'supportedTokens');
  if (supported.has(ALL_SUPPORTED_TOKENS_KEY)) return true;
  const entry = supported.getWithSchema<{ supportedTokenIDs: Buffer[] }>(
    tokenID.subarray(0, CHAIN_ID_LENGTH),
    supportedTokensStoreSchema,
  );
  return (
    entry !== undefined &&
    (entry.supportedTokenIDs.length === 0 || entry.supportedTokenIDs.some((t) => t.equals(tokenID)))
  );
};

import type { SubStore } from '../../engine/state/substore.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import { klayr32ToAddressInto } from '../../lib/crypto/address.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import { escrowStoreSchema, supplyStoreSchema, supportedTokensStoreSchema, userStoreSchema } from './schemas.js';

export const MODULE_NAME = 'token';
export const ADDRESS_LENGTH = 20;
export const CHAIN_ID_LENGTH = 4;
export const TOKEN_ID_LENGTH = 8;
/** The supported-tokens key meaning "every token is supported". */
export const ALL_SUPPORTED_TOKENS_KEY = Buffer.alloc(0);

const storePrefix = computeStorePrefix(MODULE_NAME);

/** Token substores in Klayr's registration order: user 0, supply 1, escrow 2, supportedTokens 3. */
export const TOKEN_STORES = { user: 0, supply: 1, escrow: 2, supportedTokens: 3 } as const;

/** The substores with their value schemas, in Klayr's registration order. */
export const TOKEN_STORE_DECLARATIONS = [
  { index: TOKEN_STORES.user, schema: userStoreSchema },
  { index: TOKEN_STORES.supply, schema: supplyStoreSchema },
  { index: TOKEN_STORES.escrow, schema: escrowStoreSchema },
  { index: TOKEN_STORES.supportedTokens, schema: supportedTokensStoreSchema },
];

export const tokenStore = (ctx: Pick<GenesisContext, 'store'>, name: keyof typeof TOKEN_STORES): SubStore =>
  ctx.store(storePrefix, computeSubstorePrefix(TOKEN_STORES[name]));

export const userKey = (address: Buffer, tokenID: Buffer): Buffer => Buffer.concat([address, tokenID]);

/**
 * The user store key of a klayr32 address and a hex token ID (an endpoint's params), decoded straight
 * into one buffer: token_getBalance builds one per request.
 */
export const userKeyOf = (address: string, tokenIDHex: string): Buffer => {
  const key = Buffer.allocUnsafe(ADDRESS_LENGTH + TOKEN_ID_LENGTH);
  klayr32ToAddressInto(address, key, 0);
  if (tokenIDHex.length !== 2 * TOKEN_ID_LENGTH || key.write(tokenIDHex, ADDRESS_LENGTH, 'hex') !== TOKEN_ID_LENGTH)
    throw new Error(`Token ID must be ${TOKEN_ID_LENGTH} bytes in hex, got "${tokenIDHex}"`);
  return key;
};

/** Whether the address holds an account of any token (the chain has seen it). */
export const hasUserAccount = (ctx: Pick<GenesisContext, 'store'>, address: Buffer): boolean =>
  tokenStore(ctx, 'user').iterate({
    gte: userKey(address, Buffer.alloc(TOKEN_ID_LENGTH, 0)),
    lte: userKey(address, Buffer.alloc(TOKEN_ID_LENGTH, 255)),
    limit: 1,
  }).length > 0;

import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { SubStore } from '../../engine/state/substore.js';

export const MODULE_NAME = 'token';
export const ADDRESS_LENGTH = 20;
export const CHAIN_ID_LENGTH = 4;
export const TOKEN_ID_LENGTH = 8;
/** The supported-tokens key meaning "every token is supported". */
export const ALL_SUPPORTED_TOKENS_KEY = Buffer.alloc(0);

const storePrefix = computeStorePrefix(MODULE_NAME);

/** Token substores in Klayr's registration order: user 0, supply 1, escrow 2, supportedTokens 3. */
export const TOKEN_STORES = { user: 0, supply: 1, escrow: 2, supportedTokens: 3 } as const;

export const tokenStore = (ctx: Pick<GenesisContext, 'store'>, name: keyof typeof TOKEN_STORES): SubStore =>
  ctx.store(storePrefix, computeSubstorePrefix(TOKEN_STORES[name]));

export const userKey = (address: Buffer, tokenID: Buffer): Buffer => Buffer.concat([address, tokenID]);

/** Whether the address holds an account of any token (the chain has seen it). */
export const hasUserAccount = (ctx: Pick<GenesisContext, 'store'>, address: Buffer): boolean =>
  tokenStore(ctx, 'user').iterate({ gte: userKey(address, Buffer.alloc(TOKEN_ID_LENGTH, 0)), lte: userKey(address, Buffer.alloc(TOKEN_ID_LENGTH, 255)), limit: 1 }).length > 0;

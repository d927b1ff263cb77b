import type { StoreAccess } from '../../engine/state_machine/module.js';
import { escrowStoreSchema } from './schemas.js';
import { tokenStore } from './stores.js';

/** Klayr's EscrowStore: what a chain's users hold of this chain's native token, under escrowChainID || tokenID. */
export const escrowKey = (escrowChainID: Buffer, tokenID: Buffer): Buffer => Buffer.concat([escrowChainID, tokenID]);

export const hasEscrowAccount = (ctx: StoreAccess, escrowChainID: Buffer, tokenID: Buffer): boolean =>
  tokenStore(ctx, 'escrow').has(escrowKey(escrowChainID, tokenID));

/** The escrowed amount, undefined without an escrow account. */
export const getEscrowAmount = (ctx: StoreAccess, escrowChainID: Buffer, tokenID: Buffer): bigint | undefined =>
  tokenStore(ctx, 'escrow').getWithSchema<{ amount: bigint }>(escrowKey(escrowChainID, tokenID), escrowStoreSchema)
    ?.amount;

export const setEscrowAmount = (ctx: StoreAccess, escrowChainID: Buffer, tokenID: Buffer, amount: bigint): void =>
  tokenStore(ctx, 'escrow').setWithSchema(escrowKey(escrowChainID, tokenID), { amount }, escrowStoreSchema);

/** Klayr's EscrowStore.addAmount: creates the account when missing. */
export const addEscrowAmount = (ctx: StoreAccess, escrowChainID: Buffer, tokenID: Buffer, amount: bigint): void =>
  setEscrowAmount(ctx, escrowChainID, tokenID, (getEscrowAmount(ctx, escrowChainID, tokenID) ?? 0n) + amount);

import type { MethodContext } from '../../../engine/state_machine/module.js';

type Context = Pick<MethodContext, 'store' | 'events' | 'contextStore'>;

/** The token functions interoperability calls (Klayr's TokenMethod as the interoperability module uses it). */
export interface InteropTokenMethod {
  /** Takes `fee` from the sender in the channel's message fee token (to the escrow when native); throws when it cannot. */
  payMessageFee(ctx: Context, payFromAddress: Buffer, receivingChainID: Buffer, fee: bigint): void;
  initializeUserAccount(ctx: Context, address: Buffer, tokenID: Buffer): void;
  initializeEscrowAccount(ctx: Context, chainID: Buffer, tokenID: Buffer): void;
}

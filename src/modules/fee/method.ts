import type { MethodContext } from '../../engine/state_machine/module.js';

/** Context store key of the fee still available to the generator (Klayr's name). */
export const CONTEXT_STORE_KEY_AVAILABLE_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_FEE';
const INSUFFICIENT_FEE_EVENT = 'insufficientFee';

/** Takes `amount` out of the transaction's available fee (fee method payFee); the rest of the fee is burnt. */
export const payFee = (ctx: Pick<MethodContext, 'contextStore' | 'events'>, amount: bigint): void => {
  const available = (ctx.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_FEE) as bigint | undefined) ?? 0n;
  if (available < amount) {
    ctx.events.add('fee', INSUFFICIENT_FEE_EVENT, Buffer.alloc(0), [], true);
    // not restored with the failed command's state: the whole fee is then burnt
    ctx.contextStore.delete(CONTEXT_STORE_KEY_AVAILABLE_FEE);
    throw new Error('Transaction ran out of fee.');
  }
  ctx.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, available - amount);
};

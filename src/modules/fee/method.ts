import type { MethodContext } from '../../engine/state_machine/module.js';
// set (true) by the interoperability module while it applies a CCM: fees are then paid out of the CCM's fee
import { CONTEXT_STORE_KEY_CCM_PROCESSING } from '../interoperability/base/constants.js';

/** Context store key of the fee still available to the generator (Klayr's name). */
export const CONTEXT_STORE_KEY_AVAILABLE_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_FEE';
/** Context store key of the CCM fee still available to the relayer while a CCM is applied (Klayr's name). */
export const CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE';
const INSUFFICIENT_FEE_EVENT = 'insufficientFee';

/** Klayr's getContextStoreBigInt / getContextStoreBool: absent is 0 / false, another type is refused. */
export const contextBigInt = (store: Map<string, unknown>, key: string): bigint => {
  const value = store.get(key) ?? 0n;
  if (typeof value !== 'bigint') throw new Error('Invalid context value.');
  return value;
};
const contextBool = (store: Map<string, unknown>, key: string): boolean => {
  const value = store.get(key) ?? false;
  if (typeof value !== 'boolean') throw new Error('Invalid context value.');
  return value;
};

/**
 * Takes `amount` out of the fee at hand (fee method payFee): the CCM's while a CCM is applied,
 * else the transaction's; what is left goes to the relayer or the generator, the rest is burnt.
 */
export const payFee = (ctx: Pick<MethodContext, 'contextStore' | 'events'>, amount: bigint): void => {
  const ccm = contextBool(ctx.contextStore, CONTEXT_STORE_KEY_CCM_PROCESSING);
  const key = ccm ? CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE : CONTEXT_STORE_KEY_AVAILABLE_FEE;
  const available = contextBigInt(ctx.contextStore, key);
  if (available < amount) {
    ctx.events.add('fee', INSUFFICIENT_FEE_EVENT, Buffer.alloc(0), [], true);
    // not restored with the failed command's state: the whole fee is then burnt
    ctx.contextStore.delete(key);
    throw new Error(ccm ? 'Cross-chain message ran out of fee.' : 'Transaction ran out of fee.');
  }
  ctx.contextStore.set(key, available - amount);
};

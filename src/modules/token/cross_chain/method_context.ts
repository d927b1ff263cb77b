import type { CrossChainMessageContext } from '../../../engine/state_machine/cross_chain.js';
import type { MethodContext } from '../../../engine/state_machine/module.js';

/**
 * The CCU transaction's method context (Klayr's ctx.getMethodContext()), where Klayr's token and
 * fee hooks log their events (the transaction's queue, not the CCM's); the CCM's own context
 * when it has none (a context built outside a CCU).
 */
export const transactionMethodContext = (ctx: CrossChainMessageContext): MethodContext =>
  ctx.getMethodContext?.() ?? ctx;

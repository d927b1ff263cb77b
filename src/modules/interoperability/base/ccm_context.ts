import type { CCMessage, CrossChainMessageContext } from '../../../engine/state_machine/cross_chain.js';
import type { EventQueue } from '../../../engine/state_machine/event_queue.js';
import type { CommandContext } from '../../../engine/state_machine/module.js';
import { EVENT_TOPIC_CCM_EXECUTION } from './constants.js';
import { ccmID } from './utils.js';

/** The context a CCM of a CCU (or of a message recovery) is processed in: the transaction's, with the CCM and its own event queue. */
export const ccmContext = (
  ctx: CommandContext<unknown>,
  ccm: CCMessage,
  events: EventQueue,
): CrossChainMessageContext => ({
  events,
  contextStore: ctx.contextStore,
  store: ctx.store,
  chainID: ctx.chainID,
  state: ctx.state,
  header: ctx.header,
  transaction: { senderAddress: ctx.senderAddress, fee: ctx.transaction.fee, params: ctx.transaction.params },
  ccm,
  getMethodContext: () => ({ events: ctx.events, contextStore: ctx.contextStore, store: ctx.store }),
});

/** Each CCM's events carry the topic 0x05 || CCM ID (the CCU transaction's topic is not kept). */
export const ccmEventQueue = (ctx: CommandContext<unknown>, ccmBytes: Buffer): EventQueue =>
  ctx.events.childQueue(Buffer.concat([EVENT_TOPIC_CCM_EXECUTION, ccmID(ccmBytes)]));

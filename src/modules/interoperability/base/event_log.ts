import type { CCMessage } from '../../../engine/state_machine/cross_chain.js';
import type { MethodContext } from '../../../engine/state_machine/module.js';
import { compile } from '../../../lib/codec/index.js';
import { interoperabilityEventSchemas } from '../events.js';
import { MODULE_NAME } from '../stores.js';
import type { ChainAccount, TerminatedOutboxAccount, TerminatedStateAccount } from './state.js';

type Events = Pick<MethodContext, 'events'>;
type EventName = keyof typeof interoperabilityEventSchemas;

const add = (ctx: Events, name: EventName, data: unknown, topics: readonly Buffer[], noRevert = false): void => {
  const encoded =
    data === undefined ? Buffer.alloc(0) : compile(interoperabilityEventSchemas[name]).encode(data as never);
  ctx.events.add(MODULE_NAME, name, encoded, topics, noRevert);
};

/** The interoperability module's events with Klayr's data and topics (klayr-framework modules/interoperability/events). */
export const interopEvents = {
  chainAccountUpdated: (ctx: Events, chainID: Buffer, account: ChainAccount) =>
    add(ctx, 'chainAccountUpdated', account, [chainID]),
  ccmProcessed: (
    ctx: Events,
    sendingChainID: Buffer,
    receivingChainID: Buffer,
    data: { ccm: CCMessage; result: number; code: number },
  ) => add(ctx, 'ccmProcessed', data, [sendingChainID, receivingChainID]),
  ccmSendSuccess: (ctx: Events, sendingChainID: Buffer, receivingChainID: Buffer, sentCCMID: Buffer, ccm: CCMessage) =>
    add(ctx, 'ccmSendSuccess', { ccm }, [sendingChainID, receivingChainID, sentCCMID]),
  /** Always kept when the command fails (noRevert). */
  ccmSentFailed: (ctx: Events, ccm: CCMessage, code: number) => add(ctx, 'ccmSentFailed', { ccm, code }, [], true),
  invalidRegistrationSignature: (ctx: Events, chainID: Buffer) =>
    add(ctx, 'invalidRegistrationSignature', undefined, [chainID], true),
  terminatedStateCreated: (ctx: Events, chainID: Buffer, account: TerminatedStateAccount) =>
    add(ctx, 'terminatedStateCreated', account, [chainID]),
  terminatedOutboxCreated: (ctx: Events, chainID: Buffer, account: TerminatedOutboxAccount) =>
    add(ctx, 'terminatedOutboxCreated', account, [chainID]),
  invalidSMTVerification: (ctx: Events) => add(ctx, 'invalidSMTVerification', undefined, []),
  invalidRMTVerification: (ctx: Events) => add(ctx, 'invalidRMTVerification', undefined, []),
  invalidCertificateSignature: (ctx: Events, chainID: Buffer) =>
    add(ctx, 'invalidCertificateSignature', undefined, [chainID], true),
  invalidOutboxRootVerification: (
    ctx: Events,
    chainID: Buffer,
    data: { inboxRoot: Buffer; partnerChainOutboxRoot: Buffer },
  ) => add(ctx, 'invalidOutboxRootVerification', data, [chainID], true),
};

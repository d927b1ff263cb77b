import type {
  CCMessage,
  CrossChainCommand,
  CrossChainMessageContext,
} from '../../../engine/state_machine/cross_chain.js';
import type { CompiledSchema } from '../../../lib/codec/index.js';
import { compile } from '../../../lib/codec/index.js';
import type { CCUParams } from '../../../lib/interop/schemas.js';
import { crossChainUpdateParamsSchema } from '../../../lib/interop/schemas.js';
import { CCM_PROCESSED_CODE, CCM_PROCESSED_RESULT, CCM_STATUS } from './constants.js';
import { interopEvents } from './event_log.js';
import type { InteropInternalMethod } from './internal_method.js';
import type { InteroperableModules } from './interoperable.js';
import type { InteropMethod } from './method.js';
import { chainAccounts, getOwnChainAccount } from './state.js';
import { ccmID, encodeCCM, getMainchainID } from './utils.js';

const ccuCodec = compile<CCUParams>(crossChainUpdateParamsSchema);
type Hook = 'beforeCrossChainCommandExecute' | 'afterCrossChainCommandExecute';

/**
 * Applying one CCM of a cross-chain update on the receiving chain (Klayr's
 * BaseCrossChainUpdateCommand apply, bounce, verifyCCM): every failure is reported in a
 * ccmProcessed event with Klayr's result and code, and a CCM the chain cannot process is
 * bounced back to its sender when its fee covers the return.
 */
export class CCMApplier {
  constructor(
    private readonly internal: InteropInternalMethod,
    private readonly method: InteropMethod,
    private readonly interoperable: InteroperableModules,
  ) {}

  #processed(ctx: CrossChainMessageContext, ccm: CCMessage, result: number, code: number): void {
    interopEvents.ccmProcessed(ctx, ccm.sendingChainID, ccm.receivingChainID, { ccm, result, code });
  }

  /** Terminates the sending chain and discards the CCM with the code. */
  discard(ctx: CrossChainMessageContext, code: number): void {
    this.internal.terminateChainInternal(ctx, ctx.ccm.sendingChainID);
    this.#processed(ctx, ctx.ccm, CCM_PROCESSED_RESULT.DISCARDED, code);
  }

  /** The sending chain must be live and every module's verifyCrossChainMessage must pass. */
  verifyCCM(ctx: CrossChainMessageContext): boolean {
    try {
      if (!this.internal.isLive(ctx, ctx.ccm.sendingChainID))
        throw new Error(`Sending chain ${ctx.ccm.sendingChainID.toString('hex')} is not live.`);
      for (const [, method] of this.interoperable.methods()) method.verifyCrossChainMessage?.(ctx);
      return true;
    } catch {
      this.discard(ctx, CCM_PROCESSED_CODE.INVALID_CCM_VERIFY_CCM_EXCEPTION);
      return false;
    }
  }

  #runHook(
    ctx: CrossChainMessageContext,
    hook: Hook,
    snapshot: { events: number; state: number },
    code: number,
  ): boolean {
    try {
      for (const [, method] of this.interoperable.methods()) method[hook]?.(ctx);
      return true;
    } catch {
      ctx.events.restoreSnapshot(snapshot.events);
      ctx.state.restoreSnapshot(snapshot.state);
      this.discard(ctx, code);
      return false;
    }
  }

  #before(ctx: CrossChainMessageContext, snapshot: { events: number; state: number }): boolean {
    return this.#runHook(
      ctx,
      'beforeCrossChainCommandExecute',
      snapshot,
      CCM_PROCESSED_CODE.INVALID_CCM_BEFORE_CCC_EXECUTION_EXCEPTION,
    );
  }

  #after(ctx: CrossChainMessageContext, snapshot: { events: number; state: number }): boolean {
    return this.#runHook(
      ctx,
      'afterCrossChainCommandExecute',
      snapshot,
      CCM_PROCESSED_CODE.INVALID_CCM_AFTER_CCC_EXECUTION_EXCEPTION,
    );
  }

  apply(ctx: CrossChainMessageContext): void {
    const { ccm } = ctx;
    const encoded = encodeCCM(ccm);
    if (!this.verifyCCM(ctx)) return;
    const base = { events: ctx.events.snapshot(), state: ctx.state.snapshot() };
    const commands = this.interoperable.commands(ccm.module);
    const command: CrossChainCommand<never> | undefined = commands?.find((c) => c.name === ccm.crossChainCommand);
    if (commands === undefined || command === undefined) {
      const code =
        commands === undefined ? CCM_STATUS.MODULE_NOT_SUPPORTED : CCM_STATUS.CROSS_CHAIN_COMMAND_NOT_SUPPORTED;
      if (!this.#before(ctx, base)) return;
      if (!this.#after(ctx, base)) return;
      this.bounce(ctx, encoded.length, code, code);
      return;
    }
    let params: unknown;
    try {
      const c: CompiledSchema<unknown> = compile(command.schema);
      params = c.decode(ccm.params);
      c.validate(params);
      command.verify?.(ctx);
    } catch {
      this.discard(ctx, CCM_PROCESSED_CODE.INVALID_CCM_VERIFY_CCM_EXCEPTION);
      return;
    }
    if (!this.#before(ctx, base)) return;
    const exec = { events: ctx.events.snapshot(), state: ctx.state.snapshot() };
    try {
      const ccu = ccuCodec.decode(ctx.transaction.params);
      if (chainAccounts.has(ctx, ccm.sendingChainID) && !ccu.sendingChainID.equals(ccm.sendingChainID))
        throw new Error('Cannot receive forwarded messages for a direct channel.');
      command.execute({ ...ctx, params } as never);
      this.#processed(ctx, ccm, CCM_PROCESSED_RESULT.APPLIED, CCM_PROCESSED_CODE.SUCCESS);
    } catch {
      ctx.events.restoreSnapshot(exec.events);
      ctx.state.restoreSnapshot(exec.state);
      if (!this.#after(ctx, base)) return;
      this.bounce(ctx, encoded.length, CCM_STATUS.FAILED_CCM, CCM_PROCESSED_CODE.FAILED_CCM);
      return;
    }
    this.#after(ctx, base);
  }

  /** Returns the CCM to its sender with the status, when its status is OK and its fee covers the return; discards it otherwise. */
  bounce(ctx: CrossChainMessageContext, ccmSize: number, ccmStatusCode: number, ccmProcessedCode: number): void {
    const { ccm } = ctx;
    const minFee = this.method.getMinReturnFeePerByte(ctx, ccm.sendingChainID) * BigInt(ccmSize);
    if (ccm.status !== CCM_STATUS.OK || ccm.fee < minFee) {
      this.#processed(ctx, ccm, CCM_PROCESSED_RESULT.DISCARDED, ccmProcessedCode);
      return;
    }
    this.#processed(ctx, ccm, CCM_PROCESSED_RESULT.BOUNCED, ccmProcessedCode);
    const bounced: CCMessage = {
      ...ccm,
      status: ccmStatusCode,
      sendingChainID: ccm.receivingChainID,
      receivingChainID: ccm.sendingChainID,
      fee: 0n,
    };
    const mainchainID = getMainchainID(bounced.receivingChainID);
    const own = getOwnChainAccount(ctx);
    const partnerChainID =
      own.chainID.equals(mainchainID) || chainAccounts.has(ctx, bounced.receivingChainID)
        ? bounced.receivingChainID
        : mainchainID;
    this.internal.addToOutbox(ctx, partnerChainID, bounced);
    interopEvents.ccmSendSuccess(
      ctx,
      bounced.sendingChainID,
      bounced.receivingChainID,
      ccmID(encodeCCM(bounced)),
      bounced,
    );
  }
}

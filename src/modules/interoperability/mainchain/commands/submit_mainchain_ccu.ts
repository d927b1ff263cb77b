import type { CrossChainMessageContext } from '../../../../engine/state_machine/cross_chain.js';
import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import { compile } from '../../../../lib/codec/index.js';
import type { SidechainTerminatedCCMParams } from '../../../../lib/interop/ccm_params.js';
import { sidechainTerminatedCCMParamsSchema } from '../../../../lib/interop/ccm_params.js';
import type { CCUParams } from '../../../../lib/interop/schemas.js';
import type { CCUProcessing } from '../../base/ccu_command.js';
import {
  CCM_PROCESSED_CODE,
  CCM_PROCESSED_RESULT,
  CCM_STATUS,
  CHAIN_STATUS,
  CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED,
  EMPTY_FEE_ADDRESS,
} from '../../base/constants.js';
import { interopEvents } from '../../base/event_log.js';
import type { InteroperableModules } from '../../base/interoperable.js';
import { chainAccounts } from '../../base/state.js';
import { encodeCCM, getMainchainID } from '../../base/utils.js';
import { MODULE_NAME } from '../../stores.js';

const sidechainTerminatedCodec = compile<SidechainTerminatedCCMParams>(sidechainTerminatedCCMParamsSchema);

/** submitMainchainCrossChainUpdate: a sidechain's CCU on the mainchain, whose messages are applied here or forwarded to their receiving sidechain. */
export class SubmitMainchainCrossChainUpdateCommand implements Command<CCUParams> {
  readonly name = 'submitMainchainCrossChainUpdate';
  readonly schema: CCUProcessing['schema'];

  constructor(
    private readonly ccu: CCUProcessing,
    private readonly interoperable: InteroperableModules,
  ) {
    this.schema = ccu.schema;
  }

  verify(ctx: CommandContext<CCUParams>): void {
    this.ccu.verifyCommon(ctx);
    this.ccu.verifyLivenessConditionForRegisteredChains(ctx);
  }

  execute(ctx: CommandContext<CCUParams>): void {
    this.ccu.execute(ctx, (c) => {
      if (c.ccm.receivingChainID.equals(getMainchainID(ctx.chainID))) this.ccu.applier.apply(c);
      else this.#forward(c);
    });
  }

  #beforeForwarding(
    ctx: CrossChainMessageContext,
    ccmFailed: boolean,
    snapshot: { events: number; state: number },
  ): boolean {
    try {
      for (const [, method] of this.interoperable.methods())
        method.beforeCrossChainMessageForwarding?.({ ...ctx, ccmFailed });
      return true;
    } catch {
      ctx.events.restoreSnapshot(snapshot.events);
      ctx.state.restoreSnapshot(snapshot.state);
      this.ccu.applier.discard(ctx, CCM_PROCESSED_CODE.INVALID_CCM_BEFORE_CCC_FORWARDING_EXCEPTION);
      return false;
    }
  }

  /** A CCM for another sidechain goes to that sidechain's outbox, or bounces when that chain is not active or not live. */
  #forward(ctx: CrossChainMessageContext): void {
    const { ccm } = ctx;
    const encoded = encodeCCM(ccm);
    const { internal } = this.ccu;
    if (!this.ccu.applier.verifyCCM(ctx)) return;
    let ccmFailed = false;
    const receiving = chainAccounts.get(ctx, ccm.receivingChainID);
    if (receiving === undefined || receiving.status === CHAIN_STATUS.REGISTERED) {
      ccmFailed = true;
    } else if (!internal.isLive(ctx, ccm.receivingChainID, ctx.header.timestamp)) {
      ccmFailed = true;
      internal.terminateChainInternal(ctx, ccm.receivingChainID);
      const params = sidechainTerminatedCodec.encode({
        chainID: ccm.receivingChainID,
        stateRoot: receiving.lastCertificate.stateRoot,
      });
      internal.sendInternal(
        ctx,
        EMPTY_FEE_ADDRESS,
        MODULE_NAME,
        CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED,
        ccm.sendingChainID,
        0n,
        CCM_STATUS.OK,
        params,
      );
    }
    const snapshot = { state: ctx.state.snapshot(), events: ctx.events.snapshot() };
    if (!this.#beforeForwarding(ctx, ccmFailed, snapshot)) return;
    if (ccmFailed) {
      this.ccu.applier.bounce(
        ctx,
        encoded.length,
        CCM_STATUS.CHANNEL_UNAVAILABLE,
        CCM_PROCESSED_CODE.CHANNEL_UNAVAILABLE,
      );
      return;
    }
    internal.addToOutbox(ctx, ccm.receivingChainID, ccm);
    interopEvents.ccmProcessed(ctx, ccm.sendingChainID, ccm.receivingChainID, {
      ccm,
      result: CCM_PROCESSED_RESULT.FORWARDED,
      code: CCM_PROCESSED_CODE.SUCCESS,
    });
  }
}

import type { CCMessage, CrossChainMessageContext } from '../../../../engine/state_machine/cross_chain.js';
import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../../../lib/codec/index.js';
import { compile } from '../../../../lib/codec/index.js';
import { sha256 } from '../../../../lib/crypto/hash.js';
import { calculateRootFromUpdateData, leafHash, verifyProof } from '../../../../lib/tree/index.js';
import { ccmContext, ccmEventQueue } from '../../base/ccm_context.js';
import type { MessageRecoveryParams } from '../../base/command_schemas.js';
import { messageRecoveryParamsSchema } from '../../base/command_schemas.js';
import {
  CCM_PROCESSED_CODE,
  CCM_PROCESSED_RESULT,
  CCM_STATUS,
  CONTEXT_STORE_KEY_CCM_PROCESSING,
} from '../../base/constants.js';
import { interopEvents } from '../../base/event_log.js';
import type { InteropInternalMethod } from '../../base/internal_method.js';
import type { InteroperableModules } from '../../base/interoperable.js';
import { terminatedOutboxes } from '../../base/state.js';
import { ccmCodec, encodeCCM, getMainchainID, validateCCMFormat } from '../../base/utils.js';

/** The status a recovered CCM is returned with (Klayr's CCM_STATUS_CODE_RECOVERED). */
const CCM_STATUS_RECOVERED = 5;
/** ccmProcessed code of a recovered CCM whose cross-chain command's verify fails. */
const CODE_INVALID_CCM_VERIFY_CCC_EXCEPTION = 9;
type Snapshot = { events: number; state: number };

/** A leaf index of the outbox tree (1 followed by the position in binary) as its position. */
const positionOf = (index: number): number => parseInt(index.toString(2).slice(1), 2);

/** recoverMessage: pending CCMs of a terminated sidechain's outbox, proven in its terminated outbox root, are returned to their senders or applied. */
export class RecoverMessageCommand implements Command<MessageRecoveryParams> {
  readonly name = 'recoverMessage';
  readonly schema = messageRecoveryParamsSchema;

  constructor(
    private readonly internal: InteropInternalMethod,
    private readonly interoperable: InteroperableModules,
  ) {}

  verify(ctx: CommandContext<MessageRecoveryParams>): void {
    const { chainID, crossChainMessages, idxs } = ctx.params;
    const outbox = terminatedOutboxes.get(ctx, chainID);
    if (outbox === undefined) throw new Error('Terminated outbox account does not exist.');
    if (crossChainMessages.length === 0) throw new Error('No cross-chain messages to recover.');
    if (idxs.length !== crossChainMessages.length)
      throw new Error('Inclusion proof indices and cross-chain messages do not have the same length.');
    for (let i = 0; i < idxs.length - 1; i++) {
      if (idxs[i] > idxs[i + 1]) throw new Error('Cross-chain message indexes are not strictly increasing.');
    }
    if (idxs[0] <= 1) throw new Error('Cross-chain message does not have a valid index.');
    if (positionOf(idxs[0]) < outbox.partnerChainInboxSize) throw new Error('Cross-chain message is not pending.');
    if (outbox.outboxSize <= positionOf(idxs[idxs.length - 1]))
      throw new Error('Cross-chain message was never in the outbox.');
    for (const bytes of crossChainMessages) {
      const ccm = ccmCodec.decode(bytes);
      validateCCMFormat(ccm);
      if (ccm.status !== CCM_STATUS.OK)
        throw new Error(`Cross-chain message status must be equal to value ${CCM_STATUS.OK}.`);
      if (!ccm.receivingChainID.equals(chainID))
        throw new Error('Cross-chain message receiving chain ID is not valid.');
      if (!this.internal.isLive(ctx, ccm.sendingChainID, ctx.header.timestamp))
        throw new Error('Cross-chain message sending chain is not live.');
    }
  }

  execute(ctx: CommandContext<MessageRecoveryParams>): void {
    const { params } = ctx;
    const outbox = terminatedOutboxes.getOrThrow(ctx, params.chainID);
    const proof = { size: outbox.outboxSize, idxs: params.idxs, siblingHashes: params.siblingHashes };
    if (!verifyProof(params.crossChainMessages.map(leafHash), proof, outbox.outboxRoot)) {
      interopEvents.invalidRMTVerification(ctx);
      throw new Error('Message recovery proof of inclusion is not valid.');
    }
    ctx.contextStore.set(CONTEXT_STORE_KEY_CCM_PROCESSING, true);
    const recovered = params.crossChainMessages.map((bytes) => {
      const c = ccmContext(ctx, ccmCodec.decode(bytes), ccmEventQueue(ctx, bytes));
      const ccm = c.ccm.sendingChainID.equals(getMainchainID(ctx.chainID))
        ? this.#applyRecovery(c)
        : this.#forwardRecovery(c);
      return encodeCCM(ccm);
    });
    ctx.contextStore.set(CONTEXT_STORE_KEY_CCM_PROCESSING, false);
    const outboxRoot = calculateRootFromUpdateData(recovered.map(sha256), {
      size: proof.size,
      indexes: proof.idxs,
      siblingHashes: proof.siblingHashes,
    });
    terminatedOutboxes.set(ctx, params.chainID, { ...outbox, outboxRoot });
  }

  #processed(ctx: CrossChainMessageContext, ccm: CCMessage, result: number, code: number): CCMessage {
    interopEvents.ccmProcessed(ctx, ccm.sendingChainID, ccm.receivingChainID, { ccm, result, code });
    return ccm;
  }

  /** Runs every module's hook; on a failure restores the snapshot (when given) and reports the code. */
  #hooks(
    ctx: CrossChainMessageContext,
    run: (method: NonNullable<ReturnType<InteroperableModules['method']>>) => void,
    snapshot: Snapshot | undefined,
  ): boolean {
    try {
      for (const [, method] of this.interoperable.methods()) run(method);
      return true;
    } catch {
      if (snapshot !== undefined) {
        ctx.events.restoreSnapshot(snapshot.events);
        ctx.state.restoreSnapshot(snapshot.state);
      }
      return false;
    }
  }

  #applyRecovery(ctx: CrossChainMessageContext): CCMessage {
    const recovered: CCMessage = {
      ...ctx.ccm,
      status: CCM_STATUS_RECOVERED,
      sendingChainID: ctx.ccm.receivingChainID,
      receivingChainID: ctx.ccm.sendingChainID,
    };
    const discard = (code: number) => this.#processed(ctx, recovered, CCM_PROCESSED_RESULT.DISCARDED, code);
    if (!this.#hooks(ctx, (m) => m.verifyCrossChainMessage?.(ctx), undefined))
      return discard(CCM_PROCESSED_CODE.INVALID_CCM_VERIFY_CCM_EXCEPTION);
    const commands = this.interoperable.commands(recovered.module);
    const command = commands?.find((c) => c.name === recovered.crossChainCommand);
    const failedCode =
      commands === undefined
        ? CCM_PROCESSED_CODE.MODULE_NOT_SUPPORTED
        : command === undefined
          ? CCM_PROCESSED_CODE.CROSS_CHAIN_COMMAND_NOT_SUPPORTED
          : undefined;
    if (command?.verify !== undefined) {
      try {
        command.verify(ctx);
      } catch {
        return discard(CODE_INVALID_CCM_VERIFY_CCC_EXCEPTION);
      }
    }
    const base = { events: ctx.events.snapshot(), state: ctx.state.snapshot() };
    if (!this.#hooks(ctx, (m) => m.beforeCrossChainCommandExecute?.(ctx), base))
      return discard(CCM_PROCESSED_CODE.INVALID_CCM_BEFORE_CCC_EXECUTION_EXCEPTION);
    if (command !== undefined) {
      const exec = { events: ctx.events.snapshot(), state: ctx.state.snapshot() };
      try {
        const params: unknown = (compile(command.schema) as CompiledSchema<unknown>).decode(recovered.params);
        command.execute({ ...ctx, params } as never);
        this.#processed(ctx, recovered, CCM_PROCESSED_RESULT.APPLIED, CCM_PROCESSED_CODE.SUCCESS);
      } catch {
        ctx.events.restoreSnapshot(exec.events);
        ctx.state.restoreSnapshot(exec.state);
        this.#processed(ctx, recovered, CCM_PROCESSED_RESULT.DISCARDED, CCM_PROCESSED_CODE.FAILED_CCM);
      }
    }
    if (!this.#hooks(ctx, (m) => m.afterCrossChainCommandExecute?.(ctx), base))
      return discard(CCM_PROCESSED_CODE.INVALID_CCM_AFTER_CCC_EXECUTION_EXCEPTION);
    if (failedCode !== undefined) this.#processed(ctx, recovered, CCM_PROCESSED_RESULT.DISCARDED, failedCode);
    return recovered;
  }

  #forwardRecovery(ctx: CrossChainMessageContext): CCMessage {
    const recovered: CCMessage = {
      ...ctx.ccm,
      status: CCM_STATUS_RECOVERED,
      sendingChainID: ctx.ccm.receivingChainID,
      receivingChainID: ctx.ccm.sendingChainID,
    };
    if (!this.#hooks(ctx, (m) => m.verifyCrossChainMessage?.(ctx), undefined)) {
      return this.#processed(
        ctx,
        recovered,
        CCM_PROCESSED_RESULT.DISCARDED,
        CCM_PROCESSED_CODE.INVALID_CCM_VERIFY_CCM_EXCEPTION,
      );
    }
    const base = { events: ctx.events.snapshot(), state: ctx.state.snapshot() };
    if (!this.#hooks(ctx, (m) => m.beforeCrossChainMessageForwarding?.({ ...ctx, ccmFailed: false }), base)) {
      return this.#processed(
        ctx,
        recovered,
        CCM_PROCESSED_RESULT.DISCARDED,
        CCM_PROCESSED_CODE.INVALID_CCM_BEFORE_CCC_FORWARDING_EXCEPTION,
      );
    }
    this.internal.addToOutbox(ctx, recovered.receivingChainID, recovered);
    return this.#processed(ctx, recovered, CCM_PROCESSED_RESULT.FORWARDED, CCM_PROCESSED_CODE.SUCCESS);
  }
}

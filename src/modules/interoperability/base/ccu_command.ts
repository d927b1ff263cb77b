import type { CCMessage } from '../../../engine/state_machine/cross_chain.js';
import type { CommandContext } from '../../../engine/state_machine/module.js';
import { StateMachinePanic } from '../../../engine/state_machine/panic.js';
import { compile } from '../../../lib/codec/index.js';
import type { AggregateCheck } from '../../../lib/interop/aggregate_verdicts.js';
import { decodeCertificate } from '../../../lib/interop/certificate.js';
import type { CCUParams } from '../../../lib/interop/schemas.js';
import { crossChainUpdateParamsSchema } from '../../../lib/interop/schemas.js';
import type { CCMApplier } from './ccm_apply.js';
import { ccmContext, ccmEventQueue } from './ccm_context.js';
import {
  CCM_PROCESSED_CODE,
  CCM_PROCESSED_RESULT,
  CHAIN_STATUS,
  CONTEXT_STORE_KEY_CCM_PROCESSING,
  LIVENESS_LIMIT,
} from './constants.js';
import { interopEvents } from './event_log.js';
import type { InteropInternalMethod } from './internal_method.js';
import type { InteropMethod } from './method.js';
import { certificateSignatureCheck } from './signatures.js';
import { chainAccounts, chainValidators, getOwnChainAccount } from './state.js';
import {
  ccmCodec,
  ccmWithoutParams,
  EMPTY_CCM,
  isActiveValidatorsUpdateEmpty,
  isInboxUpdateEmpty,
  validateCCMFormat,
} from './utils.js';

type Ctx = CommandContext<CCUParams>;
const ccuCodec = compile<CCUParams>(crossChainUpdateParamsSchema);

/**
 * What submitMainchainCrossChainUpdate and submitSidechainCrossChainUpdate share (Klayr's
 * BaseCrossChainUpdateCommand): the checks against state, the certificate signature and outbox
 * root, the decoding and routing of the messages, and the updates after they ran.
 */
export class CCUProcessing {
  readonly schema = crossChainUpdateParamsSchema;

  constructor(
    readonly internal: InteropInternalMethod,
    readonly method: InteropMethod,
    readonly applier: CCMApplier,
  ) {}

  get isMainchain(): boolean {
    return this.internal.variant === 'mainchain';
  }

  /** The certificate signature a CCU's execution verifies, from committed state; none without a certificate or a registered sending chain. */
  certificateSignatureChecks(params: Buffer, committed: Pick<Ctx, 'store'>): AggregateCheck[] {
    const ccu = ccuCodec.decode(params);
    if (ccu.certificate.length === 0) return [];
    const validators = chainValidators.get(committed, ccu.sendingChainID);
    if (validators === undefined) return [];
    return [certificateSignatureCheck(validators, ccu.sendingChainID, decodeCertificate(ccu.certificate))];
  }

  verifyCommon(ctx: Ctx): void {
    const { params } = ctx;
    const own = getOwnChainAccount(ctx);
    if (params.sendingChainID.equals(own.chainID))
      throw new Error('The sending chain cannot be the same as the receiving chain.');
    if (params.certificate.length === 0 && isInboxUpdateEmpty(params.inboxUpdate)) {
      throw new Error('A cross-chain update must contain a non-empty certificate and/or a non-empty inbox update.');
    }
    const sending = chainAccounts.get(ctx, params.sendingChainID);
    if (sending === undefined) throw new Error('The sending chain is not registered.');
    const live = this.isMainchain
      ? this.internal.isLive(ctx, params.sendingChainID, ctx.header.timestamp)
      : this.internal.isLive(ctx, params.sendingChainID);
    if (!live) throw new Error('The sending chain is not live.');
    if (sending.status === CHAIN_STATUS.REGISTERED && params.certificate.length === 0) {
      throw new Error(
        `Cross-chain updates from chains with status ${CHAIN_STATUS.REGISTERED} must contain a non-empty certificate.`,
      );
    }
    if (params.certificate.length > 0) this.internal.verifyCertificate(ctx, params, ctx.header.timestamp);
    const validators = chainValidators.getOrThrow(ctx, params.sendingChainID);
    if (
      !isActiveValidatorsUpdateEmpty(params.activeValidatorsUpdate) ||
      params.certificateThreshold !== validators.certificateThreshold
    ) {
      this.internal.verifyValidatorsUpdate(ctx, params);
    }
    if (!isInboxUpdateEmpty(params.inboxUpdate)) this.internal.verifyOutboxRootWitness(params);
  }

  /** The mainchain's extra rule: the first CCU with messages from a registered chain carries a recent certificate. */
  verifyLivenessConditionForRegisteredChains(ctx: Ctx): void {
    const sending = chainAccounts.getOrThrow(ctx, ctx.params.sendingChainID);
    if (sending.status !== CHAIN_STATUS.REGISTERED || isInboxUpdateEmpty(ctx.params.inboxUpdate)) return;
    const certificate = decodeCertificate(ctx.params.certificate);
    const limit = LIVENESS_LIMIT / 2;
    if (ctx.header.timestamp - certificate.timestamp > limit) {
      throw new Error(
        `The first CCU with a non-empty inbox update cannot contain a certificate older than ${limit} seconds.`,
      );
    }
  }

  verifyCertificateSignatureAndPartnerChainOutboxRoot(ctx: Ctx): void {
    const { params } = ctx;
    this.internal.verifyCertificateSignature(ctx, params);
    if (!isInboxUpdateEmpty(params.inboxUpdate)) {
      this.internal.verifyPartnerChainOutboxRoot(ctx, params);
      const messageFeeTokenID = this.method.getMessageFeeTokenID(ctx, params.sendingChainID);
      this.internal.token.initializeUserAccount(ctx, ctx.senderAddress, messageFeeTokenID);
    }
  }

  verifyRoutingRules(ccm: CCMessage, params: CCUParams, ownChainID: Buffer): void {
    if (this.isMainchain) {
      if (!ccm.sendingChainID.equals(params.sendingChainID)) throw new Error('CCM is not from the sending chain.');
      if (ccm.status === 1) throw new Error('CCM status channel unavailable can only be set on the mainchain.');
    } else if (!ownChainID.equals(ccm.receivingChainID)) throw new Error('CCM is not directed to the sidechain.');
    if (ccm.receivingChainID.equals(ccm.sendingChainID)) throw new Error('Sending and receiving chains must differ.');
  }

  /** Decodes and checks every CCM; the first bad one terminates the sending chain and stops the CCU's messages (undefined). */
  beforeCrossChainMessagesExecution(ctx: Ctx): CCMessage[] | undefined {
    const { params } = ctx;
    const ccms: CCMessage[] = [];
    for (const bytes of params.inboxUpdate.crossChainMessages) {
      const events = ccmEventQueue(ctx, bytes);
      let ccm: CCMessage;
      try {
        ccm = ccmCodec.decode(bytes);
      } catch {
        const c = ccmContext(ctx, EMPTY_CCM, events);
        this.internal.terminateChainInternal(c, params.sendingChainID);
        interopEvents.ccmProcessed(c, params.sendingChainID, ctx.chainID, {
          ccm: EMPTY_CCM,
          result: CCM_PROCESSED_RESULT.DISCARDED,
          code: CCM_PROCESSED_CODE.INVALID_CCM_DECODING_EXCEPTION,
        });
        return undefined;
      }
      const c = ccmContext(ctx, ccm, events);
      try {
        validateCCMFormat(ccm);
      } catch {
        this.internal.terminateChainInternal(c, params.sendingChainID);
        interopEvents.ccmProcessed(c, params.sendingChainID, ccm.receivingChainID, {
          ccm: ccmWithoutParams(ccm),
          result: CCM_PROCESSED_RESULT.DISCARDED,
          code: CCM_PROCESSED_CODE.INVALID_CCM_VALIDATION_EXCEPTION,
        });
        return undefined;
      }
      try {
        this.verifyRoutingRules(ccm, params, ctx.chainID);
        ccms.push(ccm);
      } catch {
        this.internal.terminateChainInternal(c, params.sendingChainID);
        interopEvents.ccmProcessed(c, params.sendingChainID, ccm.receivingChainID, {
          ccm,
          result: CCM_PROCESSED_RESULT.DISCARDED,
          code: CCM_PROCESSED_CODE.INVALID_CCM_ROUTING_EXCEPTION,
        });
        return undefined;
      }
    }
    return ccms;
  }

  afterCrossChainMessagesExecution(ctx: Ctx): void {
    const { params } = ctx;
    const validators = chainValidators.getOrThrow(ctx, params.sendingChainID);
    if (
      !isActiveValidatorsUpdateEmpty(params.activeValidatorsUpdate) ||
      params.certificateThreshold !== validators.certificateThreshold
    ) {
      this.internal.updateValidators(ctx, params);
    }
    if (params.certificate.length > 0) this.internal.updateCertificate(ctx, params);
    if (!isInboxUpdateEmpty(params.inboxUpdate) && params.certificate.length > 0)
      this.internal.updatePartnerChainOutboxRoot(ctx, params);
  }

  /** Executes a CCU: each CCM is applied here or, on the mainchain, forwarded (`route`), then appended to the inbox. */
  execute(ctx: Ctx, route: (c: ReturnType<typeof ccmContext>) => void): void {
    const { params } = ctx;
    this.verifyCertificateSignatureAndPartnerChainOutboxRoot(ctx);
    const ccms = this.beforeCrossChainMessagesExecution(ctx);
    if (ccms === undefined) return;
    try {
      ctx.contextStore.set(CONTEXT_STORE_KEY_CCM_PROCESSING, true);
      ccms.forEach((ccm, i) => {
        const bytes = params.inboxUpdate.crossChainMessages[i];
        route(ccmContext(ctx, ccm, ccmEventQueue(ctx, bytes)));
        this.internal.appendToInboxTree(ctx, params.sendingChainID, bytes);
      });
    } catch (error) {
      throw new StateMachinePanic(error);
    } finally {
      ctx.contextStore.delete(CONTEXT_STORE_KEY_CCM_PROCESSING);
    }
    this.afterCrossChainMessagesExecution(ctx);
  }
}

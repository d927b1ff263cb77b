import type {
  CrossChainMessageContext,
  CrossChainMethod,
  InteroperabilityMethod,
} from '../../engine/state_machine/cross_chain.js';
import { compile } from '../../lib/codec/index.js';
import { ccmID, encodeCCM } from '../interoperability/base/utils.js';
import { transactionMethodContext } from '../token/cross_chain/method_context.js';
import type { TokenMethod } from '../token/method.js';
import { relayerFeeProcessedSchema } from './events.js';
import { CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE, contextBigInt } from './method.js';

const relayerFeeProcessed = compile<{
  ccmID: Buffer;
  relayerAddress: Buffer;
  burntAmount: bigint;
  relayerAmount: bigint;
}>(relayerFeeProcessedSchema);

/**
 * The fee module's cross-chain hooks (Klayr's FeeInteroperableMethod): a CCM's fee, credited to
 * the relayer by the token module, is locked while its command runs (which may pay account
 * initializations out of it); afterwards what is left stays with the relayer and the rest is
 * burnt (or sent to the fee pool when one is configured).
 */
export const feeCrossChainMethod = (
  moduleName: string,
  token: TokenMethod,
  interoperability: InteroperabilityMethod,
  feePoolAddress: Buffer | undefined,
): CrossChainMethod => ({
  beforeCrossChainCommandExecute: (ctx: CrossChainMessageContext) => {
    const tokenID = interoperability.getMessageFeeTokenIDFromCCM(ctx, ctx.ccm);
    token.lock(transactionMethodContext(ctx), ctx.transaction.senderAddress, moduleName, tokenID, ctx.ccm.fee);
    ctx.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE, ctx.ccm.fee);
  },

  afterCrossChainCommandExecute: (ctx: CrossChainMessageContext) => {
    const { ccm } = ctx;
    const relayerAddress = ctx.transaction.senderAddress;
    const tokenID = interoperability.getMessageFeeTokenIDFromCCM(ctx, ccm);
    // the token changes log to the transaction's queue, relayerFeeProcessed to the CCM's (as Klayr's)
    const methodContext = transactionMethodContext(ctx);
    token.unlock(methodContext, relayerAddress, moduleName, tokenID, ccm.fee);
    const relayerAmount = contextBigInt(ctx.contextStore, CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE);
    const burntAmount = ccm.fee - relayerAmount;
    if (feePoolAddress !== undefined && token.userSubstoreExists(ctx, feePoolAddress, tokenID))
      token.transfer(methodContext, relayerAddress, feePoolAddress, tokenID, burntAmount);
    else token.burn(methodContext, relayerAddress, tokenID, burntAmount);
    ctx.events.add(
      moduleName,
      'relayerFeeProcessed',
      relayerFeeProcessed.encode({ ccmID: ccmID(encodeCCM(ccm)), relayerAddress, burntAmount, relayerAmount }),
      [relayerAddress],
    );
    ctx.contextStore.delete(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE);
  },
});

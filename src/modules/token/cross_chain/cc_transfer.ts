import type {
  CCCommandExecuteContext,
  CrossChainCommand,
  CrossChainMessageContext,
} from '../../../engine/state_machine/cross_chain.js';
import { compile } from '../../../lib/codec/index.js';
import { getEscrowAmount, setEscrowAmount } from '../escrow.js';
import { logTokenEvent, TOKEN_EVENT_RESULT } from '../events.js';
import type { TokenMethod } from '../method.js';
import { CHAIN_ID_LENGTH } from '../stores.js';
import { isTokenSupported } from '../supported_tokens.js';
import { transactionMethodContext } from './method_context.js';
import type { CrossChainTransferMessageParams } from './schemas.js';
import {
  CCM_STATUS_OK,
  CROSS_CHAIN_COMMAND_NAME_TRANSFER,
  crossChainTransferMessageParamsSchema,
  MAX_RESERVED_ERROR_STATUS,
} from './schemas.js';

const messageCodec = compile<CrossChainTransferMessageParams>(crossChainTransferMessageParamsSchema);

/**
 * The transferCrossChain CCM on the receiving chain (Klayr's CrossChainTransferCommand): credits
 * the recipient (the sender when the CCM bounced back), releasing a native token from the sending
 * chain's escrow; an unsupported token fails the CCM. A missing recipient account is created,
 * paid out of the CCM's fee.
 */
export const crossChainTransferCommand = (token: TokenMethod): CrossChainCommand<CrossChainTransferMessageParams> => ({
  name: CROSS_CHAIN_COMMAND_NAME_TRANSFER,
  schema: crossChainTransferMessageParamsSchema,
  verify: (ctx: CrossChainMessageContext) => {
    const { ccm } = ctx;
    const { tokenID, amount } = messageCodec.decode(ccm.params);
    if (ccm.status > MAX_RESERVED_ERROR_STATUS) throw new Error('Invalid CCM status code.');
    const tokenChainID = tokenID.subarray(0, CHAIN_ID_LENGTH);
    if (!tokenChainID.equals(ctx.chainID) && !tokenChainID.equals(ccm.sendingChainID))
      throw new Error('Token must be native to either the sending or the receiving chain.');
    if (tokenChainID.equals(ctx.chainID) && token.getEscrowedAmount(ctx, ccm.sendingChainID, tokenID) < amount)
      throw new Error('Insufficient balance in escrow account.');
  },
  execute: (ctx: CCCommandExecuteContext<CrossChainTransferMessageParams>) => {
    const { sendingChainID, status, receivingChainID } = ctx.ccm;
    const { tokenID, amount, senderAddress, recipientAddress: addressedTo } = messageCodec.decode(ctx.ccm.params);
    let recipientAddress = addressedTo;
    if (!isTokenSupported(ctx, ctx.chainID, tokenID)) {
      logTokenEvent(
        ctx,
        'ccmTransfer',
        { senderAddress, recipientAddress, tokenID, amount, receivingChainID },
        [senderAddress, recipientAddress],
        TOKEN_EVENT_RESULT.TOKEN_NOT_SUPPORTED,
      );
      throw new Error(`tokenID ${tokenID.toString('hex')} is not supported`);
    }
    if (status !== CCM_STATUS_OK) recipientAddress = senderAddress;
    // Klayr initializes it through the transaction's method context: its events go to the CCU's queue
    if (!token.userSubstoreExists(ctx, recipientAddress, tokenID))
      token.createUserAccount(transactionMethodContext(ctx), recipientAddress, tokenID);
    if (tokenID.subarray(0, CHAIN_ID_LENGTH).equals(ctx.chainID)) {
      const escrowed = getEscrowAmount(ctx, sendingChainID, tokenID);
      if (escrowed === undefined)
        throw new Error(
          `Escrow account of ${sendingChainID.toString('hex')} for ${tokenID.toString('hex')} does not exist.`,
        );
      if (escrowed < amount) throw new Error('Insufficient balance in escrow account.');
      setEscrowAmount(ctx, sendingChainID, tokenID, escrowed - amount);
    }
    token.addAvailableBalance(ctx, recipientAddress, tokenID, amount);
    logTokenEvent(ctx, 'ccmTransfer', { senderAddress, recipientAddress, tokenID, amount, receivingChainID }, [
      senderAddress,
      recipientAddress,
    ]);
  },
});

import type { SendContext } from '../../../engine/state_machine/cross_chain.js';
import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import { compile } from '../../../lib/codec/index.js';
import type { CrossChainTransferMessageParams, CrossChainTransferParams } from '../cross_chain/schemas.js';
import {
  CROSS_CHAIN_COMMAND_NAME_TRANSFER,
  crossChainTransferMessageParamsSchema,
  crossChainTransferParamsSchema,
} from '../cross_chain/schemas.js';
import { addEscrowAmount, hasEscrowAccount } from '../escrow.js';
import { logTokenEvent } from '../events.js';
import type { TokenMethod } from '../method.js';
import { getUser, insufficientBalanceError, missingAccount, saveUser } from '../method.js';
import { CHAIN_ID_LENGTH, MODULE_NAME } from '../stores.js';

const messageCodec = compile<CrossChainTransferMessageParams>(crossChainTransferMessageParamsSchema);

/** Klayr's verify rules, in its order: chains, message fee token, then the balances (amount and message fee summed when one token). */
const verify = (token: TokenMethod, ctx: CommandContext<CrossChainTransferParams>): void => {
  const { params } = ctx;
  const tokenChainID = params.tokenID.subarray(0, CHAIN_ID_LENGTH);
  if (params.receivingChainID.equals(ctx.chainID)) throw new Error('Receiving chain cannot be the sending chain.');
  if (!tokenChainID.equals(ctx.chainID) && !tokenChainID.equals(params.receivingChainID))
    throw new Error('Token must be native to either the sending or the receiving chain.');
  const messageFeeTokenID = token.interoperability.getMessageFeeTokenID(ctx, params.receivingChainID);
  if (!messageFeeTokenID.equals(params.messageFeeTokenID)) throw new Error('Invalid message fee Token ID.');
  const required = new Map<string, bigint>([[params.tokenID.toString('hex'), params.amount]]);
  const feeKey = messageFeeTokenID.toString('hex');
  required.set(feeKey, (required.get(feeKey) ?? 0n) + params.messageFee);
  for (const [tokenID, amount] of required) {
    const id = Buffer.from(tokenID, 'hex');
    const available = token.getAvailableBalance(ctx, ctx.senderAddress, id);
    if (available < amount) throw insufficientBalanceError(ctx.senderAddress, available, amount, id);
  }
};

/**
 * token:transferCrossChain — debits the sender, escrows a native token for the receiving chain
 * (creating its escrow account, paid out of the fee), and sends the transferCrossChain CCM with
 * the message fee through the interoperability module.
 */
export const transferCrossChainCommand = (token: TokenMethod): Command<CrossChainTransferParams> => ({
  name: CROSS_CHAIN_COMMAND_NAME_TRANSFER,
  schema: crossChainTransferParamsSchema,
  verify: (ctx) => verify(token, ctx),
  execute: (ctx) => {
    const { params, senderAddress } = ctx;
    const native = params.tokenID.subarray(0, CHAIN_ID_LENGTH).equals(ctx.chainID);
    if (native && !hasEscrowAccount(ctx, params.receivingChainID, params.tokenID))
      token.createEscrowAccount(ctx, params.receivingChainID, params.tokenID);
    const sender = getUser(ctx, senderAddress, params.tokenID);
    if (sender === undefined) throw missingAccount(senderAddress, params.tokenID);
    if (sender.availableBalance < params.amount)
      throw insufficientBalanceError(senderAddress, sender.availableBalance, params.amount, params.tokenID);
    sender.availableBalance -= params.amount;
    saveUser(ctx, senderAddress, params.tokenID, sender);
    if (native) addEscrowAmount(ctx, params.receivingChainID, params.tokenID, params.amount);
    const { recipientAddress, receivingChainID, tokenID, amount, data } = params;
    logTokenEvent(ctx, 'transferCrossChain', { senderAddress, recipientAddress, tokenID, amount, receivingChainID }, [
      senderAddress,
      recipientAddress,
      receivingChainID,
    ]);
    const message = messageCodec.encode({ tokenID, amount, senderAddress, recipientAddress, data });
    const { events, contextStore, store, chainID, state, header } = ctx;
    const sendContext: SendContext = {
      events,
      contextStore,
      store,
      chainID,
      state,
      header,
      transaction: { senderAddress, fee: ctx.transaction.fee },
    };
    token.interoperability.send(
      sendContext,
      senderAddress,
      MODULE_NAME,
      CROSS_CHAIN_COMMAND_NAME_TRANSFER,
      receivingChainID,
      params.messageFee,
      message,
      ctx.header.timestamp,
    );
  },
});

import type {
  BeforeCCMForwardingContext,
  CrossChainMessageContext,
  CrossChainMethod,
  RecoverContext,
} from '../../../engine/state_machine/cross_chain.js';
import type { CompiledSchema } from '../../../lib/codec/index.js';
import { compile } from '../../../lib/codec/index.js';
import { computeSubstorePrefix } from '../../../lib/state/keys.js';
import { ccmID, encodeCCM } from '../../interoperability/base/utils.js';
import { getEscrowAmount, setEscrowAmount } from '../escrow.js';
import { logTokenEvent, TOKEN_EVENT_RESULT } from '../events.js';
import type { TokenMethod } from '../method.js';
import type { UserAccount } from '../schemas.js';
import { userStoreSchema } from '../schemas.js';
import { ADDRESS_LENGTH, CHAIN_ID_LENGTH, TOKEN_ID_LENGTH, TOKEN_STORES } from '../stores.js';
import { transactionMethodContext } from './method_context.js';

const userCodec: CompiledSchema<UserAccount> = compile<UserAccount>(userStoreSchema);
const USER_SUBSTORE_PREFIX = computeSubstorePrefix(TOKEN_STORES.user);
const EMPTY_BYTES = Buffer.alloc(0);

/**
 * The token module's cross-chain hooks (Klayr's TokenInteroperableMethod): the relayer is paid a
 * CCM's fee (out of the sending chain's escrow when the fee token is native), forwarded fees move
 * between escrows, and a terminated chain's users recover their balances of this chain's tokens.
 */
export const tokenCrossChainMethod = (token: TokenMethod): CrossChainMethod => ({
  verifyCrossChainMessage: (ctx: CrossChainMessageContext) => {
    const { ccm } = ctx;
    const methodContext = transactionMethodContext(ctx);
    const tokenID = token.interoperability.getMessageFeeTokenIDFromCCM(methodContext, ccm);
    if (
      tokenID.subarray(0, CHAIN_ID_LENGTH).equals(ctx.chainID) &&
      (getEscrowAmount(methodContext, ccm.sendingChainID, tokenID) ?? 0n) < ccm.fee
    )
      throw new Error('Insufficient escrow amount.');
  },

  beforeCrossChainCommandExecute: (ctx: CrossChainMessageContext) => {
    const { ccm } = ctx;
    const methodContext = transactionMethodContext(ctx);
    const relayerAddress = ctx.transaction.senderAddress;
    const messageFeeTokenID = token.interoperability.getMessageFeeTokenIDFromCCM(methodContext, ccm);
    const data = { ccmID: ccmID(encodeCCM(ccm)), messageFeeTokenID, relayerAddress };
    if (messageFeeTokenID.subarray(0, CHAIN_ID_LENGTH).equals(ctx.chainID)) {
      const escrowed = getEscrowAmount(methodContext, ccm.sendingChainID, messageFeeTokenID) ?? 0n;
      if (escrowed < ccm.fee) {
        logTokenEvent(
          methodContext,
          'beforeCCCExecution',
          data,
          [relayerAddress, messageFeeTokenID],
          TOKEN_EVENT_RESULT.INSUFFICIENT_ESCROW_BALANCE,
        );
        throw new Error('Insufficient balance in the sending chain for the message fee.');
      }
      setEscrowAmount(methodContext, ccm.sendingChainID, messageFeeTokenID, escrowed - ccm.fee);
    }
    token.addAvailableBalance(methodContext, relayerAddress, messageFeeTokenID, ccm.fee);
    logTokenEvent(methodContext, 'beforeCCCExecution', data, [relayerAddress, messageFeeTokenID]);
  },

  beforeCrossChainMessageForwarding: (ctx: BeforeCCMForwardingContext) => {
    const { ccm, ccmFailed } = ctx;
    const methodContext = transactionMethodContext(ctx);
    const relayerAddress = ctx.transaction.senderAddress;
    const data = {
      ccmID: ccmID(encodeCCM(ccm)),
      messageFeeTokenID: token.interoperability.getMessageFeeTokenIDFromCCM(methodContext, ccm),
    };
    const { messageFeeTokenID } = data;
    if (!messageFeeTokenID.equals(Buffer.concat([ctx.chainID.subarray(0, 1), Buffer.alloc(TOKEN_ID_LENGTH - 1)])))
      throw new Error('Message fee token should be LSK.');
    const topics = [ccm.sendingChainID, ccm.receivingChainID];
    if (ccm.fee > 0n) {
      const escrowed = getEscrowAmount(methodContext, ccm.sendingChainID, messageFeeTokenID) ?? 0n;
      if (escrowed < ccm.fee) {
        logTokenEvent(
          methodContext,
          'beforeCCMForwarding',
          data,
          topics,
          TOKEN_EVENT_RESULT.INSUFFICIENT_ESCROW_BALANCE,
        );
        throw new Error('Insufficient balance in the sending chain for the message fee.');
      }
      setEscrowAmount(methodContext, ccm.sendingChainID, messageFeeTokenID, escrowed - ccm.fee);
      // a CCM that failed on the way pays its fee to the relayer; else the fee goes on with it
      if (ccmFailed) token.addAvailableBalance(methodContext, relayerAddress, messageFeeTokenID, ccm.fee);
      else
        setEscrowAmount(
          methodContext,
          ccm.receivingChainID,
          messageFeeTokenID,
          (getEscrowAmount(methodContext, ccm.receivingChainID, messageFeeTokenID) ?? 0n) + ccm.fee,
        );
    }
    logTokenEvent(methodContext, 'beforeCCMForwarding', data, topics);
  },

  recover: (ctx: RecoverContext) => {
    const address = ctx.storeKey.subarray(0, ADDRESS_LENGTH);
    const invalid = (): never => {
      logTokenEvent(
        ctx,
        'recover',
        { terminatedChainID: ctx.terminatedChainID, tokenID: EMPTY_BYTES, amount: 0n },
        [address],
        TOKEN_EVENT_RESULT.RECOVER_FAIL_INVALID_INPUTS,
      );
      throw new Error('Invalid arguments.');
    };
    if (!ctx.substorePrefix.equals(USER_SUBSTORE_PREFIX) || ctx.storeKey.length !== ADDRESS_LENGTH + TOKEN_ID_LENGTH)
      invalid();
    let account: UserAccount;
    try {
      account = userCodec.decode(ctx.storeValue);
      userCodec.validate(account);
    } catch {
      return invalid();
    }
    const tokenID = ctx.storeKey.subarray(ADDRESS_LENGTH, ADDRESS_LENGTH + TOKEN_ID_LENGTH);
    const amount = account.availableBalance + account.lockedBalances.reduce((sum, l) => sum + l.amount, 0n);
    const escrowed = getEscrowAmount(ctx, ctx.terminatedChainID, tokenID) ?? 0n;
    const data = { terminatedChainID: ctx.terminatedChainID, tokenID, amount };
    if (!ctx.chainID.equals(tokenID.subarray(0, CHAIN_ID_LENGTH)) || escrowed < amount) {
      logTokenEvent(ctx, 'recover', data, [address], TOKEN_EVENT_RESULT.RECOVER_FAIL_INSUFFICIENT_ESCROW);
      throw new Error('Insufficient escrow amount.');
    }
    setEscrowAmount(ctx, ctx.terminatedChainID, tokenID, escrowed - amount);
    if (!token.userSubstoreExists(ctx, address, tokenID)) token.createUserAccount(ctx, address, tokenID);
    token.addAvailableBalance(ctx, address, tokenID, amount);
    logTokenEvent(ctx, 'recover', data, [address]);
  },
});

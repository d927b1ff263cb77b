import type {
  CCMessage,
  CrossChainMessageContext,
  InteroperabilityMethod,
  SendContext,
} from '../../../engine/state_machine/cross_chain.js';
import type { MethodContext } from '../../../engine/state_machine/module.js';
import {
  CCM_STATUS,
  CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
  EMPTY_BYTES,
  EMPTY_FEE_ADDRESS,
  MAX_RESERVED_ERROR_STATUS,
} from './constants.js';
import type { InteropInternalMethod } from './internal_method.js';
import type { ChannelData } from './state.js';
import { chainAccounts, channels, getOwnChainAccount, terminatedStates } from './state.js';
import { getMainchainID } from './utils.js';

type Store = Pick<MethodContext, 'store'>;

/** Klayr's BaseInteroperabilityMethod (with the variant's isChannelActive): what other modules call. */
export class InteropMethod implements InteroperabilityMethod {
  constructor(private readonly internal: InteropInternalMethod) {}

  getOwnChainAccount(ctx: Store) {
    return getOwnChainAccount(ctx);
  }

  hasChainAccount(ctx: Store, chainID: Buffer): boolean {
    return chainAccounts.has(ctx, chainID);
  }

  isTerminated(ctx: Store, chainID: Buffer): boolean {
    return terminatedStates.has(ctx, chainID);
  }

  getChainAccount(ctx: Store, chainID: Buffer) {
    return chainAccounts.getOrThrow(ctx, chainID);
  }

  getChannel(ctx: Store, chainID: Buffer): ChannelData {
    return channels.getOrThrow(ctx, chainID);
  }

  /** The channel a message to `chainID` goes through: a sidechain reaches unknown chains via the mainchain. */
  #channelCommon(ctx: Store, chainID: Buffer): ChannelData {
    const own = getOwnChainAccount(ctx);
    if (chainID.equals(own.chainID)) throw new Error('Channel with own chain account does not exist.');
    const mainchainID = getMainchainID(chainID);
    const channelID = !own.chainID.equals(mainchainID) && !chainAccounts.has(ctx, chainID) ? mainchainID : chainID;
    if (!channels.has(ctx, channelID)) throw new Error('Channel does not exist.');
    return channels.getOrThrow(ctx, channelID);
  }

  getMessageFeeTokenID(ctx: Store, chainID: Buffer): Buffer {
    return this.#channelCommon(ctx, chainID).messageFeeTokenID;
  }

  getMessageFeeTokenIDFromCCM(ctx: Store, ccm: CCMessage): Buffer {
    return this.getMessageFeeTokenID(ctx, ccm.sendingChainID);
  }

  getMinReturnFeePerByte(ctx: Store, chainID: Buffer): bigint {
    return this.#channelCommon(ctx, chainID).minReturnFeePerByte;
  }

  send(
    ctx: SendContext,
    sendingAddress: Buffer,
    module: string,
    crossChainCommand: string,
    receivingChainID: Buffer,
    fee: bigint,
    params: Buffer,
    timestamp?: number,
  ): void {
    this.internal.sendInternal(
      ctx,
      sendingAddress,
      module,
      crossChainCommand,
      receivingChainID,
      fee,
      CCM_STATUS.OK,
      params,
      timestamp,
    );
  }

  error(ctx: CrossChainMessageContext, ccm: CCMessage, errorStatus: number): void {
    if (errorStatus >= 0 && errorStatus <= MAX_RESERVED_ERROR_STATUS) {
      throw new Error(
        `Error codes from 0 to ${MAX_RESERVED_ERROR_STATUS} (inclusive) are reserved to the Interoperability module.`,
      );
    }
    this.send(ctx, EMPTY_FEE_ADDRESS, ccm.module, ccm.crossChainCommand, ccm.sendingChainID, 0n, ccm.params);
  }

  terminateChain(ctx: SendContext, chainID: Buffer): void {
    if (terminatedStates.has(ctx, chainID)) return;
    this.internal.sendInternal(
      ctx,
      EMPTY_FEE_ADDRESS,
      'interoperability',
      CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
      chainID,
      0n,
      CCM_STATUS.OK,
      EMPTY_BYTES,
    );
    this.internal.createTerminatedStateAccount(ctx, chainID);
  }

  /** Whether messages can be sent to the chain now (Klayr's isChannelActive of the variant). */
  isChannelActive(ctx: Store, chainID: Buffer, timestamp?: number): boolean {
    const own = getOwnChainAccount(ctx);
    if (chainID.equals(own.chainID)) return false;
    if (this.internal.variant === 'mainchain') {
      const account = chainAccounts.getOrThrow(ctx, chainID);
      return this.internal.isLive(ctx, chainID, timestamp) && account.status === 1;
    }
    const account = chainAccounts.get(ctx, chainID);
    if (account !== undefined) return account.status === 1;
    const mainchain = chainAccounts.get(ctx, getMainchainID(chainID));
    if (mainchain === undefined || mainchain.status !== 1) return false;
    return !terminatedStates.has(ctx, chainID);
  }
}

import type {
  CCCommandExecuteContext,
  CrossChainCommand,
  CrossChainMessageContext,
} from '../../../engine/state_machine/cross_chain.js';
import { compile } from '../../../lib/codec/index.js';
import { emptySchema } from '../../../lib/endpoint/metadata.js';
import type { RegistrationCCMParams } from '../../../lib/interop/ccm_params.js';
import { registrationCCMParamsSchema } from '../../../lib/interop/ccm_params.js';
import type { CCUParams } from '../../../lib/interop/schemas.js';
import { crossChainUpdateParamsSchema } from '../../../lib/interop/schemas.js';
import {
  CCM_STATUS,
  CHAIN_STATUS,
  CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
  CROSS_CHAIN_COMMAND_REGISTRATION,
} from './constants.js';
import { interopEvents } from './event_log.js';
import type { InteropInternalMethod } from './internal_method.js';
import { chainAccounts, channels, getOwnChainAccount, terminatedStates } from './state.js';
import { getMainchainID } from './utils.js';

const ccuCodec = compile<CCUParams>(crossChainUpdateParamsSchema);
const registrationCodec = compile<RegistrationCCMParams>(registrationCCMParamsSchema);

/** registration: the partner chain's first message, which activates its chain account. */
export const registrationCCCommand = (): CrossChainCommand<RegistrationCCMParams> => ({
  name: CROSS_CHAIN_COMMAND_REGISTRATION,
  schema: registrationCCMParamsSchema,
  verify(ctx: CrossChainMessageContext): void {
    const { ccm } = ctx;
    const ccu = ccuCodec.decode(ctx.transaction.params);
    const params = registrationCodec.decode(ccm.params);
    const own = getOwnChainAccount(ctx);
    const account = chainAccounts.getOrThrow(ctx, ccm.sendingChainID);
    if (!ccm.sendingChainID.equals(ccu.sendingChainID))
      throw new Error('Registration message must be sent from a direct channel.');
    if (account.status !== CHAIN_STATUS.REGISTERED)
      throw new Error(`Registration message must be sent from a chain with status ${CHAIN_STATUS.REGISTERED}.`);
    const channel = channels.getOrThrow(ctx, ccm.sendingChainID);
    if (channel.inbox.size !== 0) throw new Error('Registration message must be the first message in the inbox.');
    if (ccm.status !== CCM_STATUS.OK) throw new Error(`Registration message must have status ${CCM_STATUS.OK}.`);
    if (!own.chainID.equals(ccm.receivingChainID))
      throw new Error('Registration message must be sent to the chain account ID of the chain.');
    if (!own.chainID.equals(params.chainID))
      throw new Error('Registration message must contain the chain ID of the receiving chain.');
    if (own.name !== params.name)
      throw new Error('Registration message must contain the name of the registered chain.');
    if (!channel.messageFeeTokenID.equals(params.messageFeeTokenID))
      throw new Error('Registration message must contain the same message fee token ID as the channel account.');
    if (channel.minReturnFeePerByte !== params.minReturnFeePerByte)
      throw new Error('Registration message must contain the same minimum return fee per byte as the channel account.');
    if (own.chainID.equals(getMainchainID(ctx.chainID)) && ccm.nonce !== 0n)
      throw new Error('Registration message must have nonce 0.');
  },
  execute(ctx: CCCommandExecuteContext<RegistrationCCMParams>): void {
    const account = chainAccounts.getOrThrow(ctx, ctx.ccm.sendingChainID);
    const active = { ...account, status: CHAIN_STATUS.ACTIVE };
    chainAccounts.set(ctx, ctx.ccm.sendingChainID, active);
    interopEvents.chainAccountUpdated(ctx, ctx.ccm.sendingChainID, active);
  },
});

/** channelTerminated: the partner chain terminated its channel with this chain. */
export const channelTerminatedCCCommand = (
  internal: InteropInternalMethod,
): CrossChainCommand<Record<string, never>> => ({
  name: CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
  schema: emptySchema,
  execute(ctx: CCCommandExecuteContext<Record<string, never>>): void {
    if (ctx.ccm.status !== CCM_STATUS.OK) return;
    if (terminatedStates.has(ctx, ctx.ccm.sendingChainID)) return;
    internal.createTerminatedStateAccount(ctx, ctx.ccm.sendingChainID);
  },
});

import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../../../lib/codec/index.js';
import { compile } from '../../../../lib/codec/index.js';
import { sha256 } from '../../../../lib/crypto/hash.js';
import { interoperabilityStoreKey } from '../../../../lib/interop/store_keys.js';
import type { MessageRecoveryInitializationParams } from '../../base/command_schemas.js';
import { messageRecoveryInitializationParamsSchema } from '../../base/command_schemas.js';
import { interopEvents } from '../../base/event_log.js';
import type { InteropInternalMethod } from '../../base/internal_method.js';
import { verifyStateInclusionProof } from '../../base/smt.js';
import type { ChannelData } from '../../base/state.js';
import { chainAccounts, channels, getOwnChainAccount, terminatedOutboxes, terminatedStates } from '../../base/state.js';
import { getMainchainID } from '../../base/utils.js';
import { channelDataSchema } from '../../schemas.js';

const channelCodec: CompiledSchema<ChannelData> = compile<ChannelData>(channelDataSchema);

/** initializeMessageRecovery: a terminated sidechain's channel to the mainchain, proven in its last state root, opens its terminated outbox account. */
export class InitializeMessageRecoveryCommand implements Command<MessageRecoveryInitializationParams> {
  readonly name = 'initializeMessageRecovery';
  readonly schema = messageRecoveryInitializationParamsSchema;

  constructor(private readonly internal: InteropInternalMethod) {}

  verify(ctx: CommandContext<MessageRecoveryInitializationParams>): void {
    const { params } = ctx;
    channelCodec.validate(channelCodec.decode(params.channel));
    const own = getOwnChainAccount(ctx);
    if (params.chainID.equals(getMainchainID(own.chainID)) || params.chainID.equals(own.chainID))
      throw new Error('Chain ID is not valid.');
    if (!chainAccounts.has(ctx, params.chainID)) throw new Error('Chain is not registered.');
    if (!terminatedStates.has(ctx, params.chainID)) throw new Error('Terminated state account not present.');
    if (terminatedOutboxes.has(ctx, params.chainID)) throw new Error('Terminated outbox account already exists.');
  }

  execute(ctx: CommandContext<MessageRecoveryInitializationParams>): void {
    const { params } = ctx;
    const terminated = terminatedStates.getOrThrow(ctx, params.chainID);
    const queryKey = Buffer.concat([interoperabilityStoreKey('channelData', Buffer.alloc(0)), sha256(ctx.chainID)]);
    const query = { key: queryKey, value: sha256(params.channel), bitmap: params.bitmap };
    if (
      !verifyStateInclusionProof(terminated.stateRoot, [queryKey], {
        siblingHashes: params.siblingHashes,
        queries: [query],
      })
    ) {
      interopEvents.invalidSMTVerification(ctx);
      throw new Error('Message recovery initialization proof of inclusion is not valid.');
    }
    const partnerChannel = channelCodec.decode(params.channel);
    const channel = channels.getOrThrow(ctx, params.chainID);
    this.internal.createTerminatedOutboxAccount(
      ctx,
      params.chainID,
      channel.outbox.root,
      channel.outbox.size,
      partnerChannel.inbox.size,
    );
  }
}

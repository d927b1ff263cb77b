import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import { terminateSidechainForLivenessParamsSchema } from '../../base/command_schemas.js';
import { CHAIN_STATUS } from '../../base/constants.js';
import type { InteropInternalMethod } from '../../base/internal_method.js';
import { chainAccounts } from '../../base/state.js';

/** terminateSidechainForLiveness: anyone may terminate a sidechain whose last certificate is older than the liveness limit. */
export class TerminateSidechainForLivenessCommand implements Command<{ chainID: Buffer }> {
  readonly name = 'terminateSidechainForLiveness';
  readonly schema = terminateSidechainForLivenessParamsSchema;

  constructor(private readonly internal: InteropInternalMethod) {}

  verify(ctx: CommandContext<{ chainID: Buffer }>): void {
    const account = chainAccounts.get(ctx, ctx.params.chainID);
    if (account === undefined) throw new Error('Chain account does not exist.');
    if (account.status === CHAIN_STATUS.TERMINATED) throw new Error('Sidechain is already terminated.');
    if (this.internal.isLive(ctx, ctx.params.chainID, ctx.header.timestamp))
      throw new Error('Sidechain did not violate the liveness condition.');
  }

  execute(ctx: CommandContext<{ chainID: Buffer }>): void {
    this.internal.terminateChainInternal(ctx, ctx.params.chainID);
  }
}

import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import type { CCUParams } from '../../../../lib/interop/schemas.js';
import type { CCUProcessing } from '../../base/ccu_command.js';

/** submitSidechainCrossChainUpdate: the mainchain's CCU on a sidechain; every message is for this chain and is applied. */
export class SubmitSidechainCrossChainUpdateCommand implements Command<CCUParams> {
  readonly name = 'submitSidechainCrossChainUpdate';
  readonly schema: CCUProcessing['schema'];

  constructor(private readonly ccu: CCUProcessing) {
    this.schema = ccu.schema;
  }

  verify(ctx: CommandContext<CCUParams>): void {
    this.ccu.verifyCommon(ctx);
  }

  execute(ctx: CommandContext<CCUParams>): void {
    this.ccu.execute(ctx, (c) => this.ccu.applier.apply(c));
  }
}

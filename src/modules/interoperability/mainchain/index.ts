import type { Command, EndpointServices, GenesisContext, StoreAccess } from '../../../engine/state_machine/module.js';
import type { AggregateCheck } from '../../../lib/interop/aggregate_verdicts.js';
import { BaseInteroperabilityModule } from '../base/module.js';
import { RecoverStateCommand } from '../base/recover_state.js';
import { INTEROPERABILITY_ENDPOINTS, mainchainInteroperabilityEndpoints } from '../endpoint.js';
import { initInteroperabilityGenesis } from '../genesis.js';
import { InitializeMessageRecoveryCommand } from './commands/initialize_message_recovery.js';
import { RecoverMessageCommand } from './commands/recover_message.js';
import { RegisterSidechainCommand } from './commands/register_sidechain.js';
import { SubmitMainchainCrossChainUpdateCommand } from './commands/submit_mainchain_ccu.js';
import { TerminateSidechainForLivenessCommand } from './commands/terminate_sidechain_for_liveness.js';

/** The mainchain interoperability module (Klayr's MainchainInteroperabilityModule), its commands in Klayr's order. */
export class MainchainInteroperabilityModule extends BaseInteroperabilityModule {
  readonly commands: readonly Command<never>[];
  readonly endpointDeclarations = INTEROPERABILITY_ENDPOINTS;

  constructor() {
    super('mainchain');
    this.commands = [
      new SubmitMainchainCrossChainUpdateCommand(this.ccu, this.interoperable),
      new InitializeMessageRecoveryCommand(this.internal),
      new RecoverMessageCommand(this.internal, this.interoperable),
      new RegisterSidechainCommand(this.internal),
      new RecoverStateCommand(this.interoperable),
      new TerminateSidechainForLivenessCommand(this.internal),
    ] as Command<never>[];
  }

  protected aggregateSignaturesOf(command: string, params: Buffer, committed: StoreAccess): AggregateCheck[] {
    return command === 'submitMainchainCrossChainUpdate' ? this.ccu.certificateSignatureChecks(params, committed) : [];
  }

  endpoints({ state }: EndpointServices) {
    return mainchainInteroperabilityEndpoints(state);
  }

  initGenesisState(ctx: GenesisContext): void {
    initInteroperabilityGenesis(ctx);
  }
}

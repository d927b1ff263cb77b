import type { Command, EndpointServices, GenesisContext, StoreAccess } from '../../../engine/state_machine/module.js';
import { compile } from '../../../lib/codec/index.js';
import type { AggregateCheck } from '../../../lib/interop/aggregate_verdicts.js';
import type { MainchainRegParams } from '../base/command_schemas.js';
import { mainchainRegParamsSchema } from '../base/command_schemas.js';
import { BaseInteroperabilityModule } from '../base/module.js';
import { RecoverStateCommand } from '../base/recover_state.js';
import { InitializeStateRecoveryCommand } from './commands/initialize_state_recovery.js';
import { RegisterMainchainCommand, registerMainchainSignatureCheck } from './commands/register_mainchain.js';
import { SubmitSidechainCrossChainUpdateCommand } from './commands/submit_sidechain_ccu.js';
import { SIDECHAIN_INTEROPERABILITY_ENDPOINTS, sidechainInteroperabilityEndpoints } from './endpoint.js';
import { initSidechainInteroperabilityGenesis } from './genesis.js';

const mainchainRegCodec = compile<MainchainRegParams>(mainchainRegParamsSchema);

/** The sidechain interoperability module (Klayr's SidechainInteroperabilityModule), its commands in Klayr's order. */
export class SidechainInteroperabilityModule extends BaseInteroperabilityModule {
  readonly commands: readonly Command<never>[];
  readonly endpointDeclarations = SIDECHAIN_INTEROPERABILITY_ENDPOINTS;

  constructor() {
    super('sidechain');
    this.commands = [
      new RegisterMainchainCommand(this.internal),
      new SubmitSidechainCrossChainUpdateCommand(this.ccu),
      new InitializeStateRecoveryCommand(this.internal),
      new RecoverStateCommand(this.interoperable),
    ] as Command<never>[];
  }

  protected aggregateSignaturesOf(command: string, params: Buffer, committed: StoreAccess): AggregateCheck[] {
    if (command === 'submitSidechainCrossChainUpdate') return this.ccu.certificateSignatureChecks(params, committed);
    if (command === 'registerMainchain')
      return [registerMainchainSignatureCheck(committed, mainchainRegCodec.decode(params))];
    return [];
  }

  endpoints({ state }: EndpointServices) {
    return sidechainInteroperabilityEndpoints(state);
  }

  initGenesisState(ctx: GenesisContext): void {
    initSidechainInteroperabilityGenesis(ctx);
  }
}

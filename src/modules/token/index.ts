import type {
  CrossChainCommand,
  CrossChainMethod,
  InteroperabilityMethod,
} from '../../engine/state_machine/cross_chain.js';
import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { Command, EndpointServices, Module } from '../../engine/state_machine/module.js';
import { transferCommand } from './commands/transfer.js';
import { transferCrossChainCommand } from './commands/transfer_cross_chain.js';
import { TOKEN_CONFIG_KEYS } from './config.js';
import { tokenCrossChainMethod } from './cross_chain/cc_method.js';
import { crossChainTransferCommand } from './cross_chain/cc_transfer.js';
import { TOKEN_ENDPOINTS, tokenEndpoints } from './endpoint.js';
import { tokenEventSchemas } from './events.js';
import { initTokenGenesis } from './genesis.js';
import type { TokenMethod } from './method.js';
import { genesisTokenStoreSchema } from './schemas.js';
import { MODULE_NAME, TOKEN_STORE_DECLARATIONS } from './stores.js';

/**
 * The token module: genesis balances and the transfer command; once given the interoperability
 * module's method, transferCrossChain, its cross-chain command and its cross-chain hooks.
 * Built without its method (genesis only), it has no commands.
 */
export class TokenModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = TOKEN_STORE_DECLARATIONS;
  #commands: Command<never>[];
  #crossChainCommands: CrossChainCommand<never>[] = [];
  #crossChainMethod: CrossChainMethod | undefined;
  readonly events = Object.entries(tokenEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisTokenStoreSchema }];
  readonly endpointDeclarations = TOKEN_ENDPOINTS;
  readonly configKeys = TOKEN_CONFIG_KEYS;

  constructor(readonly method?: TokenMethod) {
    this.#commands = method === undefined ? [] : [transferCommand(method)];
  }

  get commands(): readonly Command<never>[] {
    return this.#commands;
  }

  get crossChainCommands(): readonly CrossChainCommand<never>[] {
    return this.#crossChainCommands;
  }

  get crossChainMethod(): CrossChainMethod | undefined {
    return this.#crossChainMethod;
  }

  /** Klayr's addDependencies(interoperabilityMethod): enables the cross-chain command, CCM and hooks. */
  setInteroperabilityMethod(interoperability: InteroperabilityMethod): void {
    const { method } = this;
    if (method === undefined) throw new Error('The token module was built for genesis only.');
    method.setInteroperabilityMethod(interoperability);
    this.#commands = [transferCommand(method), transferCrossChainCommand(method)];
    this.#crossChainCommands = [crossChainTransferCommand(method)];
    this.#crossChainMethod = tokenCrossChainMethod(method);
  }

  endpoints({ state }: EndpointServices) {
    if (this.method === undefined) throw new Error('The token module was built for genesis only.');
    const { ownChainID, userAccountInitializationFee, escrowAccountInitializationFee } = this.method.config;
    return tokenEndpoints(state, { chainID: ownChainID, userAccountInitializationFee, escrowAccountInitializationFee });
  }

  metadata() {
    return declaredMetadata(this);
  }

  initGenesisState = initTokenGenesis;
}

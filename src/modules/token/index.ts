import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { EndpointServices, Module } from '../../engine/state_machine/module.js';
import { transferCommand } from './commands/transfer.js';
import { TOKEN_CONFIG_KEYS } from './config.js';
import { TOKEN_ENDPOINTS, tokenEndpoints } from './endpoint.js';
import { tokenEventSchemas } from './events.js';
import { initTokenGenesis } from './genesis.js';
import type { TokenMethod } from './method.js';
import { genesisTokenStoreSchema } from './schemas.js';
import { MODULE_NAME, TOKEN_STORE_DECLARATIONS } from './stores.js';

/**
 * The token module: genesis balances and the transfer command (its cross-chain command comes
 * with interoperability). Built without its method (genesis only), it has no commands.
 */
export class TokenModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = TOKEN_STORE_DECLARATIONS;
  readonly commands;
  readonly events = Object.entries(tokenEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisTokenStoreSchema }];
  readonly endpointDeclarations = TOKEN_ENDPOINTS;
  readonly configKeys = TOKEN_CONFIG_KEYS;

  constructor(readonly method?: TokenMethod) {
    this.commands = method === undefined ? [] : [transferCommand(method)];
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

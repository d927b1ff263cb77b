import type { StateModule } from '../../engine/state_machine/module.js';
import { initTokenGenesis } from './genesis.js';
import type { TokenMethod } from './method.js';
import { tokenEventSchemas } from './events.js';
import { genesisTokenStoreSchema } from './schemas.js';
import { MODULE_NAME } from './stores.js';
import { transferCommand } from './transfer.js';

/** The token module: genesis balances and the transfer command (its cross-chain command comes with interoperability). */
export class TokenModule implements StateModule {
  readonly name = MODULE_NAME;
  readonly commands;
  readonly events = Object.entries(tokenEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisTokenStoreSchema }];

  constructor(token?: TokenMethod) {
    this.commands = token === undefined ? [] : [transferCommand(token)];
  }

  initGenesisState = initTokenGenesis;
}

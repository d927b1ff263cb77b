import type { BlockContext, GenesisContext, StateModule } from '../../engine/state_machine/module.js';
import type { PoSConfig } from './config.js';
import { finalizePoSGenesis, initPoSGenesis } from './genesis.js';
import { posAfterTransactionsExecute } from './round_end.js';
import { MODULE_NAME } from './stores.js';
import { registerValidatorCommand } from './commands/register_validator.js';
import { stakeCommand } from './commands/stake.js';
import { changeCommissionCommand } from './commands/change_commission.js';
import { reportMisbehaviorCommand } from './commands/report_misbehavior.js';
import { claimRewardsCommand, unlockCommand, updateGeneratorKeyCommand } from './commands/staker_commands.js';
import { posEventSchemas } from './events.js';
import { genesisStoreSchema } from './schemas.js';
import type { TokenMethod } from '../token/method.js';

/** The PoS module: genesis, validator registration and staking, and per block the validators' productivity and the round-end election. */
export class PoSModule implements StateModule {
  readonly name = MODULE_NAME;

  readonly commands;
  readonly events = Object.entries(posEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisStoreSchema }];

  constructor(
    private readonly config: PoSConfig,
    private readonly blockTime = 10,
    token?: TokenMethod,
  ) {
    // Klayr's registration order, which system_getMetadata lists
    this.commands = token === undefined ? [] : [
            registerValidatorCommand(config),
            reportMisbehaviorCommand(config, token),
            unlockCommand(config, token),
            updateGeneratorKeyCommand(),
            stakeCommand(config, token),
            changeCommissionCommand(config),
            claimRewardsCommand(token),
          ];
  }

  initGenesisState(ctx: GenesisContext): void {
    initPoSGenesis(ctx, this.config);
  }

  finalizeGenesisState(ctx: GenesisContext): void {
    finalizePoSGenesis(ctx, this.config);
  }

  afterTransactionsExecute(ctx: BlockContext): void {
    posAfterTransactionsExecute(ctx, this.config, this.blockTime);
  }
}

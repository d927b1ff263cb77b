import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { BlockContext, EndpointServices, GenesisContext, Module } from '../../engine/state_machine/module.js';
import type { BlockAsset } from '../../lib/chain/block.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import type { TokenMethod } from '../token/method.js';
import { proofOfPossessionOf } from '../validators/proof_of_possession.js';
import { changeCommissionCommand } from './commands/change_commission.js';
import { registerValidatorCommand, registerValidatorParamsSchema } from './commands/register_validator.js';
import { reportMisbehaviorCommand } from './commands/report_misbehavior.js';
import { stakeCommand } from './commands/stake.js';
import { claimRewardsCommand, unlockCommand, updateGeneratorKeyCommand } from './commands/staker_commands.js';
import type { PoSConfig } from './config.js';
import { POS_CONFIG_KEYS } from './config.js';
import { posEndpointDeclarations, posEndpoints } from './endpoint.js';
import { posEventSchemas } from './events.js';
import { finalizePoSGenesis, genesisProofsOfPossession, initPoSGenesis } from './genesis.js';
import { posAfterTransactionsExecute } from './round_end.js';
import { genesisStoreSchema } from './schemas.js';
import { MODULE_NAME, POS_STORE_DECLARATIONS } from './stores.js';

/** The PoS module: genesis, validator registration and staking, and per block the validators' productivity and the round-end election. */
export class PoSModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = POS_STORE_DECLARATIONS;
  readonly commands;
  readonly events = Object.entries(posEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisStoreSchema }];
  readonly endpointDeclarations;
  readonly configKeys = POS_CONFIG_KEYS;

  constructor(
    readonly config: PoSConfig,
    private readonly blockTime = 10,
    token?: TokenMethod,
  ) {
    this.endpointDeclarations = posEndpointDeclarations(blockTime);
    // Klayr's registration order, which system_getMetadata lists
    this.commands =
      token === undefined
        ? []
        : [
            registerValidatorCommand(config),
            reportMisbehaviorCommand(config, token),
            unlockCommand(config, token),
            updateGeneratorKeyCommand(),
            stakeCommand(config, token),
            changeCommissionCommand(config),
            claimRewardsCommand(token),
          ];
  }

  endpoints({ state, lastHeader }: EndpointServices) {
    return posEndpoints(state, this.config, lastHeader);
  }

  metadata() {
    return declaredMetadata(this);
  }

  genesisProofsOfPossession(assets: readonly BlockAsset[]) {
    return genesisProofsOfPossession(assets);
  }

  transactionProofsOfPossession(tx: TransactionObject) {
    return proofOfPossessionOf(tx, MODULE_NAME, 'registerValidator', registerValidatorParamsSchema);
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

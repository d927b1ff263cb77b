import type { CrossChainCommand } from '../../../engine/state_machine/cross_chain.js';
import { declaredMetadata } from '../../../engine/state_machine/metadata.js';
import type {
  Command,
  EndpointDeclarations,
  EndpointServices,
  GenesisContext,
  Module,
  StoreAccess,
} from '../../../engine/state_machine/module.js';
import type { Endpoints } from '../../../lib/endpoint/definition.js';
import type { AggregateCheck } from '../../../lib/interop/aggregate_verdicts.js';
import type { TransactionObject } from '../../../lib/transaction/index.js';
import { interoperabilityEventSchemas } from '../events.js';
import { finalizeInteroperabilityGenesis } from '../genesis.js';
import { genesisInteroperabilitySchema } from '../schemas.js';
import { INTEROP_STORE_DECLARATIONS, MODULE_NAME, STORE_PREFIX } from '../stores.js';
import { channelTerminatedCCCommand, registrationCCCommand } from './cc_commands.js';
import { CCMApplier } from './ccm_apply.js';
import { CCUProcessing } from './ccu_command.js';
import type { InteropTokenMethod } from './dependencies.js';
import type { Variant } from './internal_method.js';
import { InteropInternalMethod } from './internal_method.js';
import { InteroperableModules } from './interoperable.js';
import { InteropMethod } from './method.js';

/**
 * What the mainchain and sidechain interoperability modules share (Klayr's
 * BaseInteroperabilityModule): stores, events, the genesis asset, the methods other modules call,
 * CCM processing, and the registry of interoperable modules whose hooks and cross-chain commands
 * CCMs reach.
 */
export abstract class BaseInteroperabilityModule implements Module {
  readonly name = MODULE_NAME;
  readonly storePrefix = STORE_PREFIX;
  readonly stores = INTEROP_STORE_DECLARATIONS;
  readonly events = Object.entries(interoperabilityEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisInteroperabilitySchema }];
  readonly internal: InteropInternalMethod;
  /** The interoperability method other modules (token, fee) send CCMs with. */
  readonly method: InteropMethod;
  readonly interoperable: InteroperableModules;
  readonly crossChainCommands: readonly CrossChainCommand<never>[];
  protected readonly ccu: CCUProcessing;
  abstract readonly commands: readonly Command<never>[];
  abstract readonly endpointDeclarations: EndpointDeclarations;

  constructor(variant: Variant) {
    this.internal = new InteropInternalMethod(variant);
    this.method = new InteropMethod(this.internal);
    this.crossChainCommands = [
      registrationCCCommand(),
      channelTerminatedCCCommand(this.internal),
    ] as CrossChainCommand<never>[];
    this.interoperable = new InteroperableModules(MODULE_NAME, () => this.crossChainCommands);
    this.ccu = new CCUProcessing(
      this.internal,
      this.method,
      new CCMApplier(this.internal, this.method, this.interoperable),
    );
  }

  /** Klayr's addDependencies: the token functions used for message fees, escrow and relayer accounts. */
  setTokenMethod(token: InteropTokenMethod): void {
    this.internal.setTokenMethod(token);
  }

  /** Klayr's registerInteroperableModule: the module's cross-chain hooks and commands take part in CCM processing. */
  registerInteroperableModule(module: Module): void {
    this.interoperable.register(module);
  }

  /** The aggregate signatures a transaction of this module will verify, from committed state (checked ahead in the `bls` pool). */
  transactionAggregateSignatures(tx: TransactionObject, committed: StoreAccess): AggregateCheck[] {
    if (tx.module !== this.name) return [];
    try {
      return this.aggregateSignaturesOf(tx.command, tx.params, committed);
    } catch {
      // params that do not decode fail verification anyway: nothing to check ahead
      return [];
    }
  }

  protected abstract aggregateSignaturesOf(command: string, params: Buffer, committed: StoreAccess): AggregateCheck[];

  abstract endpoints(services: EndpointServices): Endpoints;
  abstract initGenesisState(ctx: GenesisContext): void;

  metadata() {
    return declaredMetadata(this);
  }

  finalizeGenesisState(ctx: GenesisContext): void {
    finalizeInteroperabilityGenesis(ctx);
  }
}

import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { EndpointServices, GenesisContext, Module } from '../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import type { PoSConfig } from '../pos/config.js';
import type { TokenMethod } from '../token/method.js';
import { getLockedAmount } from '../token/method.js';
import { proofOfPossessionOf } from '../validators/proof_of_possession.js';
import { reclaimCommand } from './commands/reclaim.js';
import { registerKeysCommand } from './commands/register_keys.js';
import { LEGACY_ENDPOINTS, legacyEndpoints } from './endpoint.js';
import { legacyEventSchemas } from './events.js';
import { genesisLegacyStoreSchema, registerKeysParamsSchema } from './schemas.js';
import { ADDRESS_LEGACY_RESERVE, legacyAccountStoreSchema, legacyStore, MODULE_NAME } from './stores.js';

export { genesisLegacyStoreSchema } from './schemas.js';
export { legacyAccountStoreSchema, MODULE_NAME } from './stores.js';
export const LEGACY_ADDRESS_LENGTH = 8;

const genesisCodec: CompiledSchema<{ accounts: { address: Buffer; balance: bigint }[] }> =
  compile(genesisLegacyStoreSchema);

/**
 * Klayr Core's own legacy module (klayr-core, not klayr-framework): the genesis `legacy` asset
 * lists the unclaimed legacy accounts, stored in substore 0 by their 8-byte legacy address and
 * backed by the legacy reserve's locked balance; owners reclaim them, and migrated validators
 * without a BLS key register their keys.
 */
export class LegacyModule implements Module {
  readonly name = MODULE_NAME;
  readonly commands;
  readonly events = Object.entries(legacyEventSchemas).map(([name, data]) => ({ name, data }));
  readonly assets = [{ version: 0, data: genesisLegacyStoreSchema }];
  // klayr-core 4.0's metadata lists no stores, though the module has one (stores.ts)
  readonly endpointDeclarations = LEGACY_ENDPOINTS;

  constructor(private readonly deps?: { token: TokenMethod; pos: PoSConfig; chainID: Buffer }) {
    this.commands =
      deps === undefined ? [] : [reclaimCommand(deps.token, this.tokenIDReclaim()), registerKeysCommand(deps.pos)];
  }

  endpoints({ state }: EndpointServices) {
    return legacyEndpoints(state);
  }

  metadata() {
    return declaredMetadata(this);
  }

  transactionProofsOfPossession(tx: TransactionObject) {
    return proofOfPossessionOf(tx, MODULE_NAME, 'registerKeys', registerKeysParamsSchema);
  }

  /** The reclaimed token: this chain's token with the local ID of mainnet KLY (0). */
  tokenIDReclaim(): Buffer {
    return Buffer.concat([this.deps?.chainID ?? Buffer.alloc(4), Buffer.alloc(4)]);
  }

  initGenesisState(ctx: GenesisContext): void {
    const bytes = ctx.asset(MODULE_NAME);
    if (bytes === undefined) return;
    const { accounts } = genesisCodec.decode(bytes);
    genesisCodec.validate({ accounts });
    const seen = new Set(accounts.map((a) => a.address.toString('hex')));
    if (seen.size !== accounts.length) throw new Error('Legacy address entries are not pair-wise distinct');
    const total = accounts.reduce((sum, a) => sum + a.balance, 0n);
    if (total >= 2n ** 64n) throw new Error('Total balance for all legacy accounts cannot exceed 2^64');
    if (
      this.deps !== undefined &&
      total !== getLockedAmount(ctx, ADDRESS_LEGACY_RESERVE, this.tokenIDReclaim(), MODULE_NAME)
    ) {
      throw new Error('Total balance for all legacy accounts is not equal to locked amount');
    }
    const store = legacyStore(ctx);
    for (const account of accounts)
      store.setWithSchema(account.address, { balance: account.balance }, legacyAccountStoreSchema);
  }
}

import { compile } from '../../lib/codec/index.js';
import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../lib/state/keys.js';
import type { GenesisContext, GenesisModule } from '../../engine/state_machine/module.js';

export const MODULE_NAME = 'legacy';
export const LEGACY_ADDRESS_LENGTH = 8;

export const genesisLegacyStoreSchema = {
  $id: '/legacy/module/genesis',
  type: 'object',
  required: ['accounts'],
  properties: {
    accounts: {
      type: 'array',
      fieldNumber: 1,
      items: { type: 'object', required: ['address', 'balance'], properties: { address: { dataType: 'bytes', minLength: 8, maxLength: 8, fieldNumber: 1 }, balance: { dataType: 'uint64', fieldNumber: 2 } } },
    },
  },
} as const satisfies Schema;

export const legacyAccountStoreSchema = {
  $id: '/legacy/store/genesis',
  type: 'object',
  required: ['balance'],
  properties: { balance: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

const genesisCodec: CompiledSchema<{ accounts: { address: Buffer; balance: bigint }[] }> = compile(genesisLegacyStoreSchema);

/**
 * Klayr Core's own legacy module (klayr-core, not klayr-framework): the genesis `legacy` asset
 * lists the unclaimed legacy accounts, stored in substore 0 by their 8-byte legacy address.
 * (So far: its store and the genesis checks that need no other module.)
 */
export class LegacyModule implements GenesisModule {
  readonly name = MODULE_NAME;

  initGenesisState(ctx: GenesisContext): void {
    const bytes = ctx.asset(MODULE_NAME);
    if (bytes === undefined) return;
    const { accounts } = genesisCodec.decode(bytes);
    genesisCodec.validate({ accounts });
    const seen = new Set(accounts.map((a) => a.address.toString('hex')));
    if (seen.size !== accounts.length) throw new Error('Legacy address entries are not pair-wise distinct');
    if (accounts.reduce((sum, a) => sum + a.balance, 0n) >= 2n ** 64n) throw new Error('Total balance for all legacy accounts cannot exceed 2^64');
    const store = ctx.store(computeStorePrefix(MODULE_NAME), computeSubstorePrefix(0));
    for (const account of accounts) store.setWithSchema(account.address, { balance: account.balance }, legacyAccountStoreSchema);
  }
}

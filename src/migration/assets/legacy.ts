import { compile } from '../../lib/codec/index.js';
import { genesisLegacyStoreSchema } from '../../modules/legacy/schemas.js';
import { ADDRESS_LEGACY_RESERVE, legacyAccountStoreSchema, MODULE_NAME } from '../../modules/legacy/stores.js';
import type { MigratedAsset, MigrationContext } from '../context.js';
import type { KeptLock } from './token.js';

const accountCodec = compile<{ balance: bigint }>(legacyAccountStoreSchema);
const genesisCodec = compile<{ accounts: { address: Buffer; balance: bigint }[] }>(genesisLegacyStoreSchema);

/**
 * The unclaimed legacy accounts, when the old chain has any (none: no legacy asset). Their total
 * stays locked by the legacy module at the legacy reserve, as the legacy genesis requires.
 */
export const migrateLegacy = ({
  snapshot,
}: MigrationContext): (MigratedAsset & { accounts: number; keptLock: KeptLock }) | undefined => {
  const accounts = [...snapshot.substore(MODULE_NAME, 0, accountCodec)].map(({ key, value }) => ({
    address: key,
    balance: value.balance,
  }));
  if (accounts.length === 0) return undefined;
  return {
    module: MODULE_NAME,
    data: genesisCodec.encode({ accounts }),
    accounts: accounts.length,
    keptLock: { address: ADDRESS_LEGACY_RESERVE, module: MODULE_NAME },
  };
};

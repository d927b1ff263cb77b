import { compile } from '../../lib/codec/index.js';
import type { AuthAccount } from '../../modules/auth/schemas.js';
import { authAccountSchema, genesisAuthStoreSchema } from '../../modules/auth/schemas.js';
import { MODULE_NAME } from '../../modules/auth/stores.js';
import type { MigratedAsset, MigrationContext } from '../context.js';

const accountCodec = compile<AuthAccount>(authAccountSchema);
const genesisCodec = compile<{ authDataSubstore: { address: Buffer; authAccount: AuthAccount }[] }>(
  genesisAuthStoreSchema,
);

/** Every auth account of the snapshot, its multisignature keys kept and its nonce reset to 0 (a new chain replays nothing). */
export const migrateAuth = (
  { snapshot }: MigrationContext,
  onEntry: () => void = () => undefined,
): MigratedAsset & { accounts: number; multisignature: number } => {
  const authDataSubstore: { address: Buffer; authAccount: AuthAccount }[] = [];
  let multisignature = 0;
  // LMDB yields keys in byte order: the asset's address order
  for (const { key, value } of snapshot.substore(MODULE_NAME, 0, accountCodec)) {
    if (value.numberOfSignatures > 0) multisignature += 1;
    authDataSubstore.push({ address: key, authAccount: { ...value, nonce: 0n } });
    onEntry();
  }
  return {
    module: MODULE_NAME,
    data: genesisCodec.encode({ authDataSubstore }),
    accounts: authDataSubstore.length,
    multisignature,
  };
};

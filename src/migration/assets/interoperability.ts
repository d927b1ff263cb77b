import { compile } from '../../lib/codec/index.js';
import { CHAIN_NAME_MAINCHAIN } from '../../modules/interoperability/genesis.js';
import {
  chainAccountSchema,
  genesisInteroperabilitySchema,
  ownChainAccountSchema,
} from '../../modules/interoperability/schemas.js';
import { INTEROP_STORES, MODULE_NAME } from '../../modules/interoperability/stores.js';
import type { MigratedAsset, MigrationContext } from '../context.js';

const ownCodec = compile<{ name: string; chainID: Buffer; nonce: bigint }>(ownChainAccountSchema);
const chainAccountCodec = compile<Record<string, unknown>>(chainAccountSchema);
const genesisCodec = compile<{
  ownChainName: string;
  ownChainNonce: bigint;
  chainInfos: unknown[];
  terminatedStateAccounts: unknown[];
  terminatedOutboxAccounts: unknown[];
}>(genesisInteroperabilitySchema);

/**
 * The mainchain's own chain name. Registered sidechains (chain accounts, channels, terminated
 * chains) are not migrated: a snapshot that has any is refused; without them Klayr's genesis
 * requires the own chain nonce 0.
 */
export const migrateInteroperability = ({ snapshot }: MigrationContext): MigratedAsset & { ownChainName: string } => {
  const own = snapshot.get(MODULE_NAME, INTEROP_STORES.ownChainAccount, Buffer.alloc(0), ownCodec);
  for (const { key } of snapshot.substore(MODULE_NAME, INTEROP_STORES.chainAccount, chainAccountCodec)) {
    throw new Error(
      `The snapshot has a registered chain (${key.toString('hex')}): migrating cross-chain state is not supported.`,
    );
  }
  const ownChainName = own?.name ?? CHAIN_NAME_MAINCHAIN;
  const data = genesisCodec.encode({
    ownChainName,
    ownChainNonce: 0n,
    chainInfos: [],
    terminatedStateAccounts: [],
    terminatedOutboxAccounts: [],
  });
  return { module: MODULE_NAME, data, ownChainName };
};

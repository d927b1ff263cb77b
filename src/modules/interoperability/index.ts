import { compile } from '../../lib/codec/index.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { computeSubstorePrefix } from '../../lib/state/keys.js';
import type { GenesisContext, GenesisModule } from '../../engine/state_machine/module.js';
import { genesisInteroperabilitySchema, ownChainAccountSchema, registeredNamesSchema } from './schemas.js';

export const MODULE_NAME = 'interoperability';
export const CHAIN_NAME_MAINCHAIN = 'klayr_mainchain';
/** Interoperability stores use sha256("interoperability")[0..4] with the top bit set (klayr-framework's STORE_PREFIX). */
export const STORE_PREFIX = Buffer.from([0x83, 0xed, 0x0d, 0x25]);
export const INTEROP_STORES = { outboxRoot: 0, chainAccount: 1, terminatedState: 3, channelData: 5, registeredNames: 7, chainValidators: 9, terminatedOutbox: 11, ownChainAccount: 13 } as const;

interface GenesisInteroperability {
  ownChainName: string;
  ownChainNonce: bigint;
  chainInfos: unknown[];
  terminatedStateAccounts: unknown[];
  terminatedOutboxAccounts: unknown[];
}

const genesisCodec: CompiledSchema<GenesisInteroperability> = compile<GenesisInteroperability>(genesisInteroperabilitySchema);
const store = (ctx: GenesisContext, name: keyof typeof INTEROP_STORES) => ctx.store(STORE_PREFIX, computeSubstorePrefix(INTEROP_STORES[name]));

/** The mainchain's own chain ID: the network byte followed by zeros. */
export const mainchainID = (chainID: Buffer): Buffer => Buffer.concat([chainID.subarray(0, 1), Buffer.alloc(3)]);

/**
 * The mainchain interoperability module (so far: its genesis for a chain with no registered
 * sidechains: the own chain account and the mainchain's registered name). A genesis asset that
 * lists sidechains or terminated accounts is refused with a clear error until those are built.
 */
export class MainchainInteroperabilityModule implements GenesisModule {
  readonly name = MODULE_NAME;

  initGenesisState(ctx: GenesisContext): void {
    const bytes = ctx.asset(MODULE_NAME);
    if (bytes === undefined) return;
    const genesis = genesisCodec.decode(bytes);
    genesisCodec.validate(genesis);
    if (genesis.ownChainName !== CHAIN_NAME_MAINCHAIN) throw new Error(`ownChainName must be equal to ${CHAIN_NAME_MAINCHAIN}.`);
    if (genesis.chainInfos.length === 0 && genesis.ownChainNonce !== 0n) throw new Error('ownChainNonce must be 0 if chainInfos is empty.');
    if (genesis.chainInfos.length > 0 || genesis.terminatedStateAccounts.length > 0 || genesis.terminatedOutboxAccounts.length > 0) {
      throw new Error('Kestrel cannot yet process genesis chainInfos or terminated accounts (registered sidechains).');
    }
    store(ctx, 'ownChainAccount').setWithSchema(Buffer.alloc(0), { name: genesis.ownChainName, chainID: ctx.chainID, nonce: genesis.ownChainNonce }, ownChainAccountSchema);
    store(ctx, 'registeredNames').setWithSchema(Buffer.from(CHAIN_NAME_MAINCHAIN, 'ascii'), { chainID: mainchainID(ctx.chainID) }, registeredNamesSchema);
  }
}

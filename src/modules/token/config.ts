export interface TokenConfig {
  ownChainID: Buffer;
  userAccountInitializationFee: bigint;
  escrowAccountInitializationFee: bigint;
}

/** The modules.token settings tokenConfig reads. */
export const TOKEN_CONFIG_KEYS: readonly string[] = ['userAccountInitializationFee', 'escrowAccountInitializationFee'];

/** The token module's config: modules.token over Klayr's defaults (5000000 for either account initialization). */
export const tokenConfig = (chainID: Buffer, moduleConfig: Record<string, unknown> = {}): TokenConfig => ({
  ownChainID: chainID,
  userAccountInitializationFee: BigInt((moduleConfig.userAccountInitializationFee as string | undefined) ?? '5000000'),
  escrowAccountInitializationFee: BigInt(
    (moduleConfig.escrowAccountInitializationFee as string | undefined) ?? '5000000',
  ),
});

/** Klayr's `/token/config` schema: what modules.token may hold. */
export const tokenConfigSchema = {
  $id: '/token/config',
  type: 'object',
  properties: {
    userAccountInitializationFee: { type: 'string', format: 'uint64' },
    escrowAccountInitializationFee: { type: 'string', format: 'uint64' },
  },
} as const;

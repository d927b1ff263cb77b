/** The PoS settings genesis processing needs (Klayr's defaults, overridden by modules.pos). */
export interface PoSGenesisConfig {
  numberActiveValidators: number;
  maxNumberSentStakes: number;
  maxNumberPendingUnlocks: number;
  useInvalidBLSKey: boolean;
  posTokenID: Buffer;
}

export const posGenesisConfig = (chainID: Buffer, overrides: Partial<Record<keyof PoSGenesisConfig, unknown>> = {}): PoSGenesisConfig => ({
  numberActiveValidators: typeof overrides.numberActiveValidators === 'number' ? overrides.numberActiveValidators : 51,
  maxNumberSentStakes: 10,
  maxNumberPendingUnlocks: typeof overrides.maxNumberPendingUnlocks === 'number' ? overrides.maxNumberPendingUnlocks : 20,
  useInvalidBLSKey: overrides.useInvalidBLSKey === true,
  posTokenID: typeof overrides.posTokenID === 'string' ? Buffer.from(overrides.posTokenID, 'hex') : Buffer.concat([chainID, Buffer.alloc(4)]),
});

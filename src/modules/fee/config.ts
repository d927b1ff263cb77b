import { klayr32ToAddress } from '../../lib/crypto/address.js';

export interface FeeConfig {
  feeTokenID: Buffer;
  minFeePerByte: number;
  maxBlockHeightZeroFeePerByte: number;
  feePoolAddress?: Buffer;
}

/** The fee module's config: modules.fee over Klayr's defaults (fee token = chainID || 00000000, 1000 per byte). */
/** The modules.fee settings feeConfig reads. */
export const FEE_CONFIG_KEYS: readonly string[] = ['feeTokenID', 'minFeePerByte', 'maxBlockHeightZeroFeePerByte', 'feePoolAddress'];

export const feeConfig = (chainID: Buffer, moduleConfig: Record<string, unknown> = {}): FeeConfig => ({
  feeTokenID: typeof moduleConfig.feeTokenID === 'string' ? Buffer.from(moduleConfig.feeTokenID, 'hex') : Buffer.concat([chainID, Buffer.alloc(4)]),
  minFeePerByte: typeof moduleConfig.minFeePerByte === 'number' ? moduleConfig.minFeePerByte : 1000,
  maxBlockHeightZeroFeePerByte: typeof moduleConfig.maxBlockHeightZeroFeePerByte === 'number' ? moduleConfig.maxBlockHeightZeroFeePerByte : 0,
  ...(typeof moduleConfig.feePoolAddress === 'string' ? { feePoolAddress: klayr32ToAddress(moduleConfig.feePoolAddress) } : {}),
});

import { klayr32ToAddress } from '../../lib/crypto/address.js';

export interface FeeConfig {
  feeTokenID: Buffer;
  minFeePerByte: number;
  maxBlockHeightZeroFeePerByte: number;
  feePoolAddress?: Buffer;
}

/** The fee module's config: modules.fee over Klayr's defaults (fee token = chainID || 00000000, 1000 per byte). */
/** The modules.fee settings feeConfig reads. */
export const FEE_CONFIG_KEYS: readonly string[] = [
  'feeTokenID',
  'minFeePerByte',
  'maxBlockHeightZeroFeePerByte',
  'feePoolAddress',
];

export const feeConfig = (chainID: Buffer, moduleConfig: Record<string, unknown> = {}): FeeConfig => ({
  feeTokenID:
    typeof moduleConfig.feeTokenID === 'string'
      ? Buffer.from(moduleConfig.feeTokenID, 'hex')
      : Buffer.concat([chainID, Buffer.alloc(4)]),
  minFeePerByte: typeof moduleConfig.minFeePerByte === 'number' ? moduleConfig.minFeePerByte : 1000,
  maxBlockHeightZeroFeePerByte:
    typeof moduleConfig.maxBlockHeightZeroFeePerByte === 'number' ? moduleConfig.maxBlockHeightZeroFeePerByte : 0,
  ...(typeof moduleConfig.feePoolAddress === 'string'
    ? { feePoolAddress: klayr32ToAddress(moduleConfig.feePoolAddress) }
    : {}),
});

/** Klayr's `/fee/config` schema: what modules.fee may hold (the defaults fill in what it leaves out). */
export const feeConfigSchema = {
  $id: '/fee/config',
  type: 'object',
  properties: {
    feeTokenID: { type: 'string', format: 'hex' },
    minFeePerByte: { type: 'integer', format: 'uint32' },
    maxBlockHeightZeroFeePerByte: { type: 'integer', format: 'uint32' },
    feePoolAddress: { type: 'string', format: 'klayr32' },
  },
} as const;

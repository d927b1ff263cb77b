import type { EndpointDefinition } from '../../rpc/registry.js';

export interface FeeConfig {
  feeTokenID: Buffer;
  minFeePerByte: number;
}

/** The fee module's config: modules.fee over Klayr's defaults (fee token = chainID || 00000000, 1000 per byte). */
export const feeConfig = (chainID: Buffer, moduleConfig: Record<string, unknown> = {}): FeeConfig => ({
  feeTokenID: typeof moduleConfig.feeTokenID === 'string' ? Buffer.from(moduleConfig.feeTokenID, 'hex') : Buffer.concat([chainID, Buffer.alloc(4)]),
  minFeePerByte: typeof moduleConfig.minFeePerByte === 'number' ? moduleConfig.minFeePerByte : 1000,
});

export const feeEndpoints = (config: FeeConfig): Record<string, EndpointDefinition> => ({
  getFeeTokenID: { handler: () => ({ tokenID: config.feeTokenID.toString('hex') }) },
  getMinFeePerByte: { handler: () => ({ minFeePerByte: config.minFeePerByte }) },
});

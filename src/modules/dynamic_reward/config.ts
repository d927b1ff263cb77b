/** The reward settings: modules.dynamicReward over Klayr's reward defaults. */
export interface RewardConfig {
  offset: number;
  distance: number;
  brackets: bigint[];
  tokenID: Buffer;
  factorMinimumRewardActiveValidators: number;
  rewardReductionFactorBFT: bigint;
}

/** The modules.dynamicReward settings rewardConfig reads. */
export const REWARD_CONFIG_KEYS: readonly string[] = [
  'offset',
  'distance',
  'brackets',
  'tokenID',
  'factorMinimumRewardActiveValidators',
  'rewardReductionFactorBFT',
];

export const rewardConfig = (chainID: Buffer, moduleConfig: Record<string, unknown> = {}): RewardConfig => ({
  offset: typeof moduleConfig.offset === 'number' ? moduleConfig.offset : 2160,
  distance: typeof moduleConfig.distance === 'number' ? moduleConfig.distance : 3000000,
  brackets: (Array.isArray(moduleConfig.brackets)
    ? (moduleConfig.brackets as string[])
    : ['500000000', '400000000', '300000000', '200000000', '100000000']
  ).map((b) => BigInt(b)),
  tokenID:
    typeof moduleConfig.tokenID === 'string'
      ? Buffer.from(moduleConfig.tokenID, 'hex')
      : Buffer.concat([chainID, Buffer.alloc(4)]),
  factorMinimumRewardActiveValidators:
    typeof moduleConfig.factorMinimumRewardActiveValidators === 'number'
      ? moduleConfig.factorMinimumRewardActiveValidators
      : 1000,
  rewardReductionFactorBFT: BigInt((moduleConfig.rewardReductionFactorBFT as string | undefined) ?? '4'),
});

/** Klayr's `/dynamicReward/config` schema: what modules.dynamicReward may hold (the defaults fill in what it leaves out). */
export const rewardConfigSchema = {
  $id: '/dynamicReward/config',
  type: 'object',
  properties: {
    tokenID: { type: 'string', format: 'hex', minLength: 16, maxLength: 16 },
    offset: { type: 'integer', minimum: 1 },
    distance: { type: 'integer', minimum: 1 },
    brackets: { type: 'array', items: { type: 'string', format: 'uint64' } },
    factorMinimumRewardActiveValidators: { type: 'integer', minimum: 1 },
  },
} as const;

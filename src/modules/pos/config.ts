/** PoS module settings: modules.pos over klayr-framework's PoS defaults. */
export interface PoSConfig {
  factorSelfStakes: number;
  maxLengthName: number;
  maxNumberSentStakes: number;
  maxNumberPendingUnlocks: number;
  failSafeMissedBlocks: number;
  failSafeInactiveWindow: number;
  punishmentWindowStaking: number;
  punishmentWindowSelfStaking: number;
  minWeightStandby: bigint;
  numberActiveValidators: number;
  numberStandbyValidators: number;
  validatorRegistrationFee: bigint;
  maxBFTWeightCap: number;
  commissionIncreasePeriod: number;
  maxCommissionIncreaseRate: number;
  useInvalidBLSKey: boolean;
  baseStakeAmount: bigint;
  lockingPeriodStaking: number;
  lockingPeriodSelfStaking: number;
  reportMisbehaviorReward: bigint;
  reportMisbehaviorLimitBanned: number;
  weightScaleFactor: bigint;
  posTokenID: Buffer;
  roundLength: number;
}

const DEFAULTS = {
  factorSelfStakes: 10,
  maxLengthName: 20,
  maxNumberSentStakes: 10,
  maxNumberPendingUnlocks: 20,
  failSafeMissedBlocks: 50,
  failSafeInactiveWindow: 120960,
  punishmentWindowStaking: 241920,
  punishmentWindowSelfStaking: 725760,
  minWeightStandby: '100000000000',
  numberActiveValidators: 51,
  numberStandbyValidators: 2,
  validatorRegistrationFee: '1000000000',
  maxBFTWeightCap: 500,
  commissionIncreasePeriod: 241920,
  maxCommissionIncreaseRate: 500,
  useInvalidBLSKey: false,
  baseStakeAmount: '1000000000',
  lockingPeriodStaking: 25920,
  lockingPeriodSelfStaking: 241920,
  reportMisbehaviorReward: '100000000',
  reportMisbehaviorLimitBanned: 5,
  weightScaleFactor: '100000000000',
};

/** The modules.pos settings posConfig reads. */
export const POS_CONFIG_KEYS: readonly string[] = [...Object.keys(DEFAULTS), 'posTokenID'];

export const posConfig = (chainID: Buffer, overrides: Record<string, unknown> = {}): PoSConfig => {
  const merged = { ...DEFAULTS, posTokenID: `${chainID.toString('hex')}00000000`, ...overrides } as typeof DEFAULTS & { posTokenID: string };
  return {
    ...merged,
    minWeightStandby: BigInt(merged.minWeightStandby),
    validatorRegistrationFee: BigInt(merged.validatorRegistrationFee),
    baseStakeAmount: BigInt(merged.baseStakeAmount),
    reportMisbehaviorReward: BigInt(merged.reportMisbehaviorReward),
    weightScaleFactor: BigInt(merged.weightScaleFactor),
    posTokenID: Buffer.from(merged.posTokenID, 'hex'),
    roundLength: merged.numberActiveValidators + merged.numberStandbyValidators,
  };
};

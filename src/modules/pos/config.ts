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
  const merged = { ...DEFAULTS, posTokenID: `${chainID.toString('hex')}00000000`, ...overrides } as typeof DEFAULTS & {
    posTokenID: string;
  };
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

const u32 = (bounds: { minimum?: number; maximum?: number } = {}) =>
  ({ type: 'integer', format: 'uint32', ...bounds }) as const;
const u64 = (bounds: { minimum?: number } = {}) => ({ type: 'string', format: 'uint64', ...bounds }) as const;

/** Klayr's `/pos/config` schema: what modules.pos may hold (the defaults fill in what it leaves out). */
export const posConfigSchema = {
  $id: '/pos/config',
  type: 'object',
  properties: {
    factorSelfStakes: u32({ minimum: 1 }),
    maxLengthName: u32({ minimum: 10, maximum: 30 }),
    maxNumberSentStakes: u32({ minimum: 1, maximum: 20 }),
    maxNumberPendingUnlocks: u32({ minimum: 1, maximum: 40 }),
    failSafeMissedBlocks: u32({ minimum: 2 }),
    // bounded by the block time: posWindowProblems
    failSafeInactiveWindow: u32(),
    punishmentWindowSelfStaking: u32(),
    minWeightStandby: u64({ minimum: 1 }),
    numberActiveValidators: u32({ minimum: 1, maximum: 199 }),
    numberStandbyValidators: u32({ maximum: 2 }),
    posTokenID: { type: 'string', format: 'hex' },
    validatorRegistrationFee: u64(),
    maxBFTWeightCap: u32({ minimum: 300, maximum: 10000 }),
    commissionIncreasePeriod: u32(),
    maxCommissionIncreaseRate: u32({ minimum: 100, maximum: 10000 }),
    useInvalidBLSKey: { type: 'boolean' },
    baseStakeAmount: u64({ minimum: 1 }),
    lockingPeriodStaking: u32(),
    lockingPeriodSelfStaking: u32(),
    reportMisbehaviorReward: u64(),
    reportMisbehaviorLimitBanned: u32({ minimum: 1 }),
  },
} as const;

const SECONDS_PER_DAY = 24 * 60 * 60;

/** The PoS windows Klayr bounds by the block time. */
const BOUNDED_WINDOWS = ['failSafeInactiveWindow', 'punishmentWindowSelfStaking'] as const;
export type BoundedWindow = (typeof BOUNDED_WINDOWS)[number];

/** Klayr's PoS module bounds those windows by 5 days to a year of blocks at the block time (PoSModule._getConfigSchema). */
export const posWindowBounds = (blockTime: number): { minimum: number; maximum: number } => {
  const perDay = SECONDS_PER_DAY / blockTime;
  return { minimum: Math.floor(5 * perDay), maximum: Math.floor(365 * perDay) };
};

/** The bounded windows' values, the defaults merged in (as Klayr checks them). */
export const posWindowValues = (settings: Record<string, unknown>): Record<BoundedWindow, number> =>
  Object.fromEntries(
    BOUNDED_WINDOWS.map((name) => [name, (settings[name] as number | undefined) ?? DEFAULTS[name]]),
  ) as Record<BoundedWindow, number>;

/**
 * The windows checked against their bounds with the defaults merged in, as Klayr's PoS module does:
 * at a 3-second block time the default failSafeInactiveWindow (120,960 blocks, 4.2 days) is
 * refused. Problems as `.<setting>: <message>`.
 */
export const posWindowProblems = (settings: Record<string, unknown>, blockTime: number): string[] => {
  const { minimum, maximum } = posWindowBounds(blockTime);
  return Object.entries(posWindowValues(settings)).flatMap(([name, value]) => {
    if (value < minimum) return [`.${name}: must be >= ${minimum} (5 days of ${blockTime}-second blocks)`];
    if (value > maximum) return [`.${name}: must be <= ${maximum} (a year of ${blockTime}-second blocks)`];
    return [];
  });
};

import { compile } from '../../lib/codec/index.js';
import { addressToKlayr32, klayr32ToAddress } from '../../lib/crypto/address.js';
import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import type { PoSConfig } from './config.js';
import { stakerStoreSchema, validatorStoreSchema } from './schemas.js';
import { posStore } from './stores.js';

const COMMISSION = 10000;
const addressParams = { type: 'object', required: ['address'], properties: { address: { type: 'string', format: 'klayr32' } } } as const;
const validatorCodec = compile<{ reportMisbehaviorHeights: number[] } & Record<string, unknown>>(validatorStoreSchema);
const stakerCodec = compile(stakerStoreSchema);

/** The PoS endpoints that read validators, stakers and settings, as klayr-framework answers them. */
export const posEndpoints = (state: () => StoreAccess, config: PoSConfig): Record<string, EndpointDefinition> => {
  const punishmentPeriods = (heights: number[]) => heights.map((start) => ({ start, end: start + config.punishmentWindowSelfStaking }));
  const validatorJSON = (address: Buffer, bytes: Buffer) => {
    const account = validatorCodec.decode(bytes);
    return { ...validatorCodec.toJSON(account), address: addressToKlayr32(address), punishmentPeriods: punishmentPeriods(account.reportMisbehaviorHeights) };
  };
  return {
    getValidator: {
      params: addressParams,
      handler: ({ params }) => {
        const address = klayr32ToAddress(params.address as string);
        const bytes = posStore(state(), 'validator').get(address);
        if (bytes === undefined) throw new Error(`Validator ${String(params.address)} does not exist.`);
        return validatorJSON(address, bytes);
      },
    },
    getAllValidators: {
      handler: () => ({ validators: posStore(state(), 'validator').iterate({ gte: Buffer.alloc(20), lte: Buffer.alloc(20, 255) }).map(({ key, value }) => validatorJSON(key, value)) }),
    },
    getStaker: {
      params: addressParams,
      handler: ({ params }) => {
        const bytes = posStore(state(), 'staker').get(klayr32ToAddress(params.address as string));
        if (bytes === undefined) throw new Error(`Staker ${String(params.address)} does not exist.`);
        return stakerCodec.toJSON(stakerCodec.decode(bytes));
      },
    },
    getPoSTokenID: { handler: () => ({ tokenID: config.posTokenID.toString('hex') }) },
    getRegistrationFee: { handler: () => ({ fee: config.validatorRegistrationFee.toString() }) },
    getConstants: {
      handler: () => ({
        factorSelfStakes: config.factorSelfStakes,
        maxLengthName: config.maxLengthName,
        maxNumberSentStakes: config.maxNumberSentStakes,
        maxNumberPendingUnlocks: config.maxNumberPendingUnlocks,
        failSafeMissedBlocks: config.failSafeMissedBlocks,
        failSafeInactiveWindow: config.failSafeInactiveWindow,
        punishmentWindowStaking: config.punishmentWindowStaking,
        punishmentWindowSelfStaking: config.punishmentWindowSelfStaking,
        roundLength: config.roundLength,
        minWeightStandby: config.minWeightStandby.toString(),
        numberActiveValidators: config.numberActiveValidators,
        numberStandbyValidators: config.numberStandbyValidators,
        posTokenID: config.posTokenID.toString('hex'),
        validatorRegistrationFee: config.validatorRegistrationFee.toString(),
        maxBFTWeightCap: config.maxBFTWeightCap,
        commissionIncreasePeriod: config.commissionIncreasePeriod,
        maxCommissionIncreaseRate: config.maxCommissionIncreaseRate,
        useInvalidBLSKey: config.useInvalidBLSKey,
        baseStakeAmount: config.baseStakeAmount.toString(),
        lockingPeriodStaking: config.lockingPeriodStaking,
        lockingPeriodSelfStaking: config.lockingPeriodSelfStaking,
        reportMisbehaviorReward: config.reportMisbehaviorReward.toString(),
        reportMisbehaviorLimitBanned: config.reportMisbehaviorLimitBanned,
        weightScaleFactor: config.weightScaleFactor.toString(),
        defaultCommission: COMMISSION,
      }),
    },
  };
};
